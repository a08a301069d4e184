/**
 * Promotion rules, pure. Money is integer minor units.
 *
 * Rounding rule (the one the store states): a percentage discount is rounded DOWN to the minor
 * unit (kobo, cent), so the store never takes off more than the stated percentage. A fixed amount
 * is taken as it is. Either way the discount is never below zero and never more than the
 * eligible subtotal; delivery is never discounted.
 */
import type { MarketCode } from './markets';

export type DiscountRule = { kind: 'percent'; percentOff: number } | { kind: 'fixed'; amountOffMinor: number };

/** The system key of the newsletter's welcome promotion (one code per subscriber). */
export const NEWSLETTER_WELCOME = 'newsletter-welcome';

/**
 * How long a payment not yet paid (started, the shopper on the payment page or gone) holds a place
 * of a limited code: after this the place is free for the next shopper (ADR 0011).
 */
export const UNPAID_HOLD_MINUTES = 30;

/** Codes are case-insensitive: stored and compared upper-case, spaces trimmed. */
export function normaliseCode(input: string): string {
  return input.trim().toUpperCase();
}

/** Money off an eligible subtotal, in minor units (see the rounding rule above). */
export function discountMinor(eligibleSubtotalMinor: number, rule: DiscountRule): number {
  const base = Math.max(0, Math.trunc(eligibleSubtotalMinor));
  const off = rule.kind === 'percent' ? shareOf(base, rule.percentOff, 100) : Math.max(0, Math.trunc(rule.amountOffMinor));
  return Math.min(base, off);
}

/**
 * floor(amount × part / whole) in BigInt: a naira basket's amount × part passes 2^53 (₦100,000,000
 * is 10^10 kobo), where a float product has already lost its last kobo.
 */
function shareOf(amountMinor: number, part: number, whole: number): number {
  return Number((BigInt(amountMinor) * BigInt(part)) / BigInt(whole));
}

/**
 * Spreads a discount over lines in proportion to their totals, so a partial refund returns what
 * was paid for those lines. Largest remainder: each line gets the floor of its exact share, then
 * the minor units left go one each to the lines with the largest remainders (earlier lines first
 * on a tie), so the parts add up exactly to the whole. Lines with a zero total get nothing.
 * The shares are computed in BigInt, exact for any basket.
 */
export function spreadDiscount(lineTotalsMinor: readonly number[], totalDiscountMinor: number): number[] {
  const sum = lineTotalsMinor.reduce((a, b) => a + b, 0);
  if (sum <= 0 || totalDiscountMinor <= 0) return lineTotalsMinor.map(() => 0);
  const discount = BigInt(Math.min(totalDiscountMinor, sum));
  const whole = BigInt(sum);
  const shares = lineTotalsMinor.map((total, index) => {
    const numerator = BigInt(total) * discount;
    return { index, floor: numerator / whole, remainder: numerator % whole };
  });
  let left = Number(discount - shares.reduce((a, s) => a + s.floor, 0n));
  const order = [...shares].sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  const parts = shares.map((s) => Number(s.floor));
  for (const s of order) {
    if (left <= 0) break;
    if (lineTotalsMinor[s.index]! <= 0) continue;
    parts[s.index]! += 1;
    left -= 1;
  }
  return parts;
}

/**
 * What giving back `quantity` of a line's units returns: their part of what the line cost, its
 * discount share taken off. Units are priced in the order they come back, `unitsBackBefore` being
 * the line's units whose money went back earlier: this claim gets paid × (before + quantity) / n
 * less paid × before / n (each floored), so however the units come back, one at a time or all at
 * once, they give back exactly what the line cost, each claim within one minor unit of its share.
 */
export function paidForUnits(lineTotalMinor: number, lineDiscountMinor: number, lineQuantity: number, quantity: number, unitsBackBefore = 0): number {
  const paid = lineTotalMinor - lineDiscountMinor;
  if (lineQuantity <= 0) return 0;
  const before = Math.min(Math.max(0, unitsBackBefore), lineQuantity);
  const after = Math.min(before + Math.max(0, quantity), lineQuantity);
  return shareOf(paid, after, lineQuantity) - shareOf(paid, before, lineQuantity);
}

/** A market's amount from a per-market record ({ NG?: minor, ZA?: minor }); undefined when the market has none. */
export function marketAmount(amounts: Partial<Record<MarketCode, number>>, market: MarketCode): number | undefined {
  return amounts[market];
}
