import { describe, expect, it } from 'vitest';
import { discountMinor, normaliseCode, paidForUnits, spreadDiscount } from '@/lib/domain/promotions';
import { mulberry32 } from '../support/prng';

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

/** A seeded PRNG (mulberry32): the same baskets on every run, so a failure can be replayed. */
function seeded(seed: number) {
  const next = mulberry32(seed);
  /** A whole number in [min, max], for ranges wider than 2^32 too. */
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int };
}

/** Up to ₦100,000,000 (10,000,000,000 kobo) over up to 100 lines. */
const MAX_TOTAL_MINOR = 10_000_000_000;

function basket(rand: ReturnType<typeof seeded>): number[] {
  const lines = rand.int(1, 100);
  const total = rand.int(1, MAX_TOTAL_MINOR);
  // Random cut points, so a few lines may carry almost all of the total.
  const cuts = Array.from({ length: lines - 1 }, () => rand.int(0, total)).sort((a, b) => a - b);
  return [...cuts, total].map((c, i, all) => c - (i === 0 ? 0 : all[i - 1]!));
}

/** A shop's basket: prices in whole ₦5,000s, a few of each, so shares are often whole or tied. */
function shopBasket(rand: ReturnType<typeof seeded>): number[] {
  return Array.from({ length: rand.int(1, 100) }, () => rand.int(1, 400) * 500_000 * rand.int(1, 5));
}

describe('exact arithmetic on large naira baskets', () => {
  it('spreads a discount exactly and in proportion, up to ₦100,000,000 over 100 lines', () => {
    const rand = seeded(20_261_126);
    for (let n = 0; n < 6_000; n++) {
      const lines = n % 2 ? basket(rand) : shopBasket(rand);
      const sum = lines.reduce((a, b) => a + b, 0);
      const discount = n % 4 === 0 ? discountMinor(sum, { kind: 'percent', percentOff: rand.int(1, 100) }) : rand.int(0, sum);
      const parts = spreadDiscount(lines, discount);
      expect(parts.reduce((a, b) => a + b, 0), `basket ${n}`).toBe(discount);
      // Each part is the floor of its exact share (lines[i] × discount / sum) or one more, and the
      // extra units went to the largest remainders, earlier lines first on a tie.
      let smallestBumped: bigint | undefined;
      let largestNotBumped = -1n;
      const wrong: number[] = [];
      parts.forEach((part, i) => {
        const product = BigInt(lines[i]!) * BigInt(discount);
        const extra = BigInt(part) - product / BigInt(sum);
        const remainder = product % BigInt(sum);
        if (extra < 0n || extra > 1n || part > lines[i]!) wrong.push(i);
        const rank = remainder * 1_000n + BigInt(999 - i);
        if (extra === 1n && (smallestBumped === undefined || rank < smallestBumped)) smallestBumped = rank;
        if (extra === 0n && lines[i]! > 0 && rank > largestNotBumped) largestNotBumped = rank;
      });
      expect(wrong, `basket ${n}`).toEqual([]);
      expect((smallestBumped ?? largestNotBumped) >= largestNotBumped, `basket ${n}: a smaller remainder got the extra unit`).toBe(true);
    }
  });

  it('is exact where floating point is not: a basket past 2^53', () => {
    // 797,500,000 × 1,266,574,847 is past 2^53: as a float product the first line's remainder
    // looked the larger and took the extra kobo that is the second line's.
    expect(spreadDiscount([797_500_000, 495_000_000], 1_266_574_847)).toEqual([781_503_629, 485_071_218]);
  });

  it('takes a percentage exactly off ₦100,000,000', () => {
    expect(discountMinor(9_999_999_999, { kind: 'percent', percentOff: 33 })).toBe(3_299_999_999);
    expect(discountMinor(MAX_TOTAL_MINOR, { kind: 'percent', percentOff: 100 })).toBe(MAX_TOTAL_MINOR);
  });
});

describe('units given back one at a time', () => {
  it('give back exactly what the line cost, in proportion within one minor unit', () => {
    const rand = seeded(33);
    for (let n = 0; n < 2_000; n++) {
      const quantity = rand.int(1, 100);
      const lineTotal = rand.int(1, MAX_TOTAL_MINOR);
      const discount = rand.int(0, lineTotal);
      const paid = lineTotal - discount;
      let back = 0;
      for (let unit = 0; unit < quantity; unit++) {
        const one = paidForUnits(lineTotal, discount, quantity, 1, unit);
        expect(Math.abs(one * quantity - paid), `line ${n}, unit ${unit}`).toBeLessThan(quantity);
        back += one;
      }
      expect(back, `line ${n}`).toBe(paid);
    }
  });

  it('adds up the same whatever the sizes of the returns', () => {
    // ₦1,000.01 for 3 units: 33,333 + 33,334 + 33,334 kobo, never 3 × 33,333.
    expect([0, 1, 2].map((before) => paidForUnits(100_001, 0, 3, 1, before))).toEqual([33_333, 33_334, 33_334]);
    expect(paidForUnits(100_001, 0, 3, 2, 0) + paidForUnits(100_001, 0, 3, 1, 2)).toBe(100_001);
    expect(paidForUnits(100_001, 0, 3, 1, 0) + paidForUnits(100_001, 0, 3, 2, 1)).toBe(100_001);
    // Asked for more units than are left: what is left of the line.
    expect(paidForUnits(100_001, 0, 3, 5, 1)).toBe(66_668);
  });
});
