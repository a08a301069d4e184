/**
 * Promotion rules, pure (issue 18). Money is integer minor units.
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

/** Codes are case-insensitive: stored and compared upper-case, spaces trimmed. */
export function normaliseCode(input: string): string {
  return input.trim().toUpperCase();
}

/** Money off an eligible subtotal, in minor units (see the rounding rule above). */
export function discountMinor(eligibleSubtotalMinor: number, rule: DiscountRule): number {
  const base = Math.max(0, Math.trunc(eligibleSubtotalMinor));
  const off = rule.kind === 'percent' ? Math.floor((base * rule.percentOff) / 100) : Math.max(0, Math.trunc(rule.amountOffMinor));
  return Math.min(base, off);
}

/**
 * Spreads a discount over lines in proportion to their totals, so a partial refund returns what
 * was paid for those lines. Largest remainder: each line gets the floor of its exact share, then
 * the minor units left go one each to the lines with the largest remainders (earlier lines first
 * on a tie), so the parts add up exactly to the whole. Lines with a zero total get nothing.
 */
export function spreadDiscount(lineTotalsMinor: readonly number[], totalDiscountMinor: number): number[] {
  const sum = lineTotalsMinor.reduce((a, b) => a + b, 0);
  if (sum <= 0 || totalDiscountMinor <= 0) return lineTotalsMinor.map(() => 0);
  const discount = Math.min(totalDiscountMinor, sum);
  // Exact shares as numerator / sum; integer arithmetic keeps it exact for any realistic amount.
  const shares = lineTotalsMinor.map((total, index) => {
    const numerator = total * discount;
    return { index, floor: Math.floor(numerator / sum), remainder: numerator % sum };
  });
  let left = discount - shares.reduce((a, s) => a + s.floor, 0);
  const order = [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  const parts = shares.map((s) => s.floor);
  for (const s of order) {
    if (left <= 0) break;
    if (lineTotalsMinor[s.index]! <= 0) continue;
    parts[s.index]! += 1;
    left -= 1;
  }
  return parts;
}

/** What a line refund returns: the line's paid amount for `quantity` of its units (its discount share spread the same way). */
export function paidForUnits(lineTotalMinor: number, lineDiscountMinor: number, lineQuantity: number, quantity: number): number {
  if (quantity >= lineQuantity) return lineTotalMinor - lineDiscountMinor;
  const paid = lineTotalMinor - lineDiscountMinor;
  return Math.floor((paid * quantity) / lineQuantity);
}

/** A market's amount from a per-market record ({ NG?: minor, ZA?: minor }); undefined when the market has none. */
export function marketAmount(amounts: Partial<Record<MarketCode, number>>, market: MarketCode): number | undefined {
  return amounts[market];
}
