import { z } from 'zod';
import { otpSchema } from './accounts';
import { CHECKOUT_PAY_BUTTON } from './payment-methods';
import { localRedirectPath } from './redirects';

/**
 * Phone verification's inputs: "Send code" and "Verify" on /place-order (pay on
 * delivery) and /settings. A plain form post goes back to `back`, a path on this site only.
 */
export const PHONE_VERIFY_BACK = '/place-order?payment=on_delivery';
/** The forms' ids (their controls name them with `form=`, so they may sit inside another form) and the code field's, the anchor "Send code" comes back to. */
export const PHONE_SEND_FORM = 'vp-send';
export const PHONE_VERIFY_FORM = 'vp-verify';
export const PHONE_CODE_FIELD = 'verify-phone-code';

const back = z.string().max(2000).optional();

export const sendPhoneCodeSchema = z.object({ back });
/** The code: 4 digits, with the e-mail code's words when it is not. */
export const verifyPhoneSchema = z.object({ code: otpSchema, back });

/** Where a plain form post returns: `back` (the body's, else the action's ?back=) when it is a local path, else checkout. */
export function phoneVerifyNext(bodyBack: string | undefined, queryBack: string | null, origin: string): string {
  return localRedirectPath(bodyBack, origin) ?? localRedirectPath(queryBack, origin) ?? PHONE_VERIFY_BACK;
}

/** Where "Send code" returns a plain form post: phoneVerifyNext at the code field, the next thing to fill in. */
export function phoneCodeSentNext(bodyBack: string | undefined, queryBack: string | null, origin: string): string {
  return `${phoneVerifyNext(bodyBack, queryBack, origin).replace(/#.*$/, '')}#${PHONE_CODE_FIELD}`;
}

/**
 * Where "Verify" returns a plain form post: phoneVerifyNext, and on checkout at PAY & PLACE
 * ORDER, where the finished step stood (the page would otherwise open at its top).
 */
export function phoneVerifiedNext(bodyBack: string | undefined, queryBack: string | null, origin: string): string {
  const next = phoneVerifyNext(bodyBack, queryBack, origin);
  return /^\/place-order(?:[?#]|$)/.test(next) ? `${next.replace(/#.*$/, '')}#${CHECKOUT_PAY_BUTTON}` : next;
}
