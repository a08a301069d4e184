import { describe, expect, it } from 'vitest';
import { checkoutTotals } from '@/lib/domain/checkout-totals';

// ₦1,000.10 of goods, ₦100.05 off, ₦150.15 delivery: figures whose major-unit sums drift in floats.
const quote = { subtotalMinor: 100_010, discountMinor: 10_005, deliveryFeeMinor: 15_015, totalMinor: 105_020 };
const none = { lockerFeeMinor: null, giftWrapMinor: 0, storeCreditMinor: 0 };

describe('the checkout totals, from the server quote in minor units', () => {
  it('is the quote itself when nothing is chosen', () => {
    expect(checkoutTotals(quote, none)).toEqual({ ...quote, giftWrapMinor: 0, creditMinor: 0, leftMinor: 105_020 });
  });

  it('a locker fee stands in for the delivery fee; wrapping adds its fee', () => {
    const t = checkoutTotals(quote, { ...none, lockerFeeMinor: 6_510, giftWrapMinor: 5_000 });
    expect(t).toMatchObject({ deliveryFeeMinor: 6_510, giftWrapMinor: 5_000, totalMinor: 105_020 - 15_015 + 6_510 + 5_000 });
    expect(Number.isInteger(t.totalMinor)).toBe(true);
  });

  it('a free locker is still the locker (not the speed fee)', () => {
    expect(checkoutTotals(quote, { ...none, lockerFeeMinor: 0 })).toMatchObject({ deliveryFeeMinor: 0, totalMinor: 90_005 });
  });

  it('store credit comes off at most the whole total', () => {
    expect(checkoutTotals(quote, { ...none, storeCreditMinor: 5_000 })).toMatchObject({ creditMinor: 5_000, leftMinor: 100_020 });
    expect(checkoutTotals(quote, { ...none, storeCreditMinor: 999_999 })).toMatchObject({ creditMinor: 105_020, leftMinor: 0 });
  });
});
