import { z } from 'zod';
import { otpSchema } from './accounts';
import { localRedirectPath } from './redirects';

/**
 * Phone verification's inputs: "Send code" and "Verify" on /place-order (pay on
 * delivery) and /settings. A plain form post goes back to `back`, a path on this site only.
 */
export const PHONE_VERIFY_BACK = '/place-order?payment=on_delivery';

const back = z.string().max(2000).optional();

export const sendPhoneCodeSchema = z.object({ back });
/** The code: 4 digits, with the e-mail code's words when it is not. */
export const verifyPhoneSchema = z.object({ code: otpSchema, back });

/** Where a plain form post returns: `back` (the body's, else the action's ?back=) when it is a local path, else checkout. */
export function phoneVerifyNext(bodyBack: string | undefined, queryBack: string | null, origin: string): string {
  return localRedirectPath(bodyBack, origin) ?? localRedirectPath(queryBack, origin) ?? PHONE_VERIFY_BACK;
}
