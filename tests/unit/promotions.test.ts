import { describe, expect, it } from 'vitest';
import { discountMinor, normaliseCode, paidForUnits, spreadDiscount } from '@/lib/domain/promotions';

describe('discount rounding (percentages round down to the minor unit)', () => {
  it('takes the percentage off and rounds down, never up', () => {
    expect(discountMinor(1_000_000, { kind: 'percent', percentOff: 20 })).toBe(200_000);
    // 20% of ₦999.99 is ₦199.998: the shopper gets ₦199.99 off, not ₦200.00
    expect(discountMinor(99_999, { kind: 'percent', percentOff: 20 })).toBe(19_999);
    expect(discountMinor(1, { kind: 'percent', percentOff: 20 })).toBe(0);
    expect(discountMinor(3, { kind: 'percent', percentOff: 33 })).toBe(0);
  });

  it('never takes more than the eligible subtotal, nor below zero', () => {
    expect(discountMinor(5_000, { kind: 'fixed', amountOffMinor: 20_000 })).toBe(5_000);
    expect(discountMinor(5_000, { kind: 'percent', percentOff: 100 })).toBe(5_000);
    expect(discountMinor(0, { kind: 'fixed', amountOffMinor: 1_000 })).toBe(0);
    expect(discountMinor(-50, { kind: 'percent', percentOff: 20 })).toBe(0);
    expect(discountMinor(5_000, { kind: 'fixed', amountOffMinor: -10 })).toBe(0);
  });
});

describe('spreading a discount over the lines', () => {
  it('gives each line its share in proportion, and the parts add up exactly', () => {
    expect(spreadDiscount([60_000, 40_000], 20_000)).toEqual([12_000, 8_000]);
    const parts = spreadDiscount([33_333, 33_333, 33_334], 10_001);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(10_001);
    for (const [i, part] of parts.entries()) expect(Math.abs(part - (([33_333, 33_333, 33_334][i]! * 10_001) / 100_000))).toBeLessThan(1);
  });

  it('hands the minor units left over to the largest remainders, earlier lines first on a tie', () => {
    expect(spreadDiscount([1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(spreadDiscount([10, 20], 1)).toEqual([0, 1]);
  });

  it('gives nothing to lines that cost nothing, and nothing at all without a discount', () => {
    expect(spreadDiscount([0, 500, 0], 100)).toEqual([0, 100, 0]);
    expect(spreadDiscount([100, 200], 0)).toEqual([0, 0]);
    expect(spreadDiscount([], 100)).toEqual([]);
  });

  it('adds up for many random baskets', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let n = 0; n < 500; n++) {
      const lines = Array.from({ length: 1 + (next() % 8) }, () => next() % 5_000_000);
      const sum = lines.reduce((a, b) => a + b, 0);
      const discount = sum === 0 ? 0 : next() % (sum + 1);
      const parts = spreadDiscount(lines, discount);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(Math.min(discount, sum));
      parts.forEach((p, i) => expect(p).toBeLessThanOrEqual(lines[i]!));
    }
  });
});

describe('what a line refund returns', () => {
  it('is what was paid for those units: the line less its discount share', () => {
    expect(paidForUnits(300_000, 60_000, 3, 3)).toBe(240_000);
    expect(paidForUnits(300_000, 60_000, 3, 1)).toBe(80_000);
    expect(paidForUnits(100_001, 1, 2, 1)).toBe(50_000);
  });
});

it('reads codes case-insensitively', () => {
  expect(normaliseCode('  welcome-ab12cd34 ')).toBe('WELCOME-AB12CD34');
});
