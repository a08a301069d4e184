/**
 * A gift's return by its recipient (ADR 0045): the request shapes of the /gift-return/<token> page
 * and its API, and how the page shows a number and an address it must not give away whole.
 */
import { z } from 'zod';
import { registerSchema, otpSchema } from './accounts';
import { returnRequestSchema } from './after-sales-input';

/** How long the proof of the recipient's phone (a signed, http-only cookie) lasts after the code. */
export const GIFT_RETURN_PROOF_MS = 30 * 60 * 1000;
/** The proof's cookie. */
export const GIFT_RETURN_COOKIE = 'ml_gift_return';

/** "+234 ••• ••• 4567": the number the code goes to, shown without giving it to whoever holds the link. */
export function maskPhone(e164: string): string {
  const digits = e164.replace(/\D/g, '');
  const country = e164.startsWith('+234') ? '+234' : e164.startsWith('+27') ? '+27' : '+';
  return `${country} ••• ••• ${digits.slice(-4)}`;
}

/** "a•••@example.com": an address shown or logged without giving it away (the gift-return page, the mail log). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

export const giftReturnCodeSchema = z.object({ code: otpSchema });

/** The recipient's new account: sign-up's fields and rules, the phone and country coming from the order. */
export const giftReturnAccountSchema = registerSchema.pick({ firstName: true, lastName: true, email: true, password: true });
export type GiftReturnAccountInput = z.output<typeof giftReturnAccountSchema>;

/**
 * The recipient's request: the shopper's form (pieces, quantities, reason, how it comes back), its
 * money always store credit, never an exchange (a dearer piece's difference would be the buyer's).
 */
export const giftReturnRequestSchema = z.preprocess(
  (raw) => (raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>), resolution: 'credit' } : raw),
  returnRequestSchema,
);
