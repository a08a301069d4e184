import type { Country } from './geo';
import { MESSAGES } from './messages';

/**
 * Phone numbers in E.164 (+2348031234567), the form text messages are addressed by. A number is
 * read in the shopper's country: its national form with the trunk 0 (0803 123 4567 in Nigeria,
 * 082 123 4567 in South Africa), without it, or in international form (+234…, 00234…, 234…) for
 * either market. Pure: no I/O.
 */
interface PhonePlan {
  callingCode: string;
  /** The national significant number (without the trunk 0). */
  nsn: RegExp;
  invalid: string;
}

const PLANS: Record<Country, PhonePlan> = {
  // Mobiles: 10 digits starting 7, 8 or 9 (0803 123 4567); fixed lines: 8 digits (01 234 5678).
  nigeria: { callingCode: '234', nsn: /^(?:[789][01]\d{8}|[1-9]\d{7})$/, invalid: MESSAGES['phone-invalid-ng'] },
  // 9 digits: mobiles 6x, 7x, 8x (082 123 4567); fixed lines 1x–5x (011 123 4567).
  south_africa: { callingCode: '27', nsn: /^[1-8]\d{8}$/, invalid: MESSAGES['phone-invalid-za'] },
};

/** A mobile number in each country's own form, as a phone field's example. */
export const PHONE_EXAMPLES: Record<Country, string> = { nigeria: '0803 123 4567', south_africa: '082 123 4567' };

export type PhoneResult = { ok: true; e164: string } | { ok: false; message: string };

/** The market a number in international form belongs to, and its national significant number. */
function international(digits: string): { country: Country; nsn: string } | null {
  for (const [country, plan] of Object.entries(PLANS) as [Country, PhonePlan][]) {
    if (digits.startsWith(plan.callingCode)) return { country, nsn: digits.slice(plan.callingCode.length).replace(/^0/, '') };
  }
  return null;
}

/** `raw` in E.164, read in `country`; or the message that says what is wrong with it. */
export function normalisePhone(raw: string, country: Country): PhoneResult {
  const compact = raw.trim().replace(/[\s().-]/g, '');
  if (!/^\+?\d{6,16}$/.test(compact)) return { ok: false, message: MESSAGES['phone-invalid'] };
  const own = PLANS[country];
  let target: { country: Country; nsn: string } | null;
  if (compact.startsWith('+') || compact.startsWith('00')) {
    target = international(compact.replace(/^\+|^00/, ''));
    if (!target) return { ok: false, message: MESSAGES['phone-other-country'] };
  } else if (compact.startsWith('0')) {
    target = { country, nsn: compact.slice(1) };
  } else if (own.nsn.test(compact)) {
    target = { country, nsn: compact };
  } else {
    // 2348031234567 or 27821234567: international form without the +.
    target = international(compact) ?? { country, nsn: compact };
  }
  const plan = PLANS[target.country];
  if (!plan.nsn.test(target.nsn)) return { ok: false, message: plan.invalid };
  return { ok: true, e164: `+${plan.callingCode}${target.nsn}` };
}

/** Whether `value` is already a number in E.164 of one of the store's markets. */
export function isE164(value: string): boolean {
  const r = /^\+\d+$/.test(value) ? international(value.slice(1)) : null;
  return r !== null && PLANS[r.country].nsn.test(r.nsn) && `+${PLANS[r.country].callingCode}${r.nsn}` === value;
}

/** A phone number as a `tel:` link (digits and the leading +). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}
