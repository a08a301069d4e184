import { describe, expect, it } from 'vitest';
import { byRate, creditNoteSplit, rateOn, remainingOf, shareByWeight, totalsOf, vatInGross, vatLines, type GrossLine, type RateBucket } from '@/lib/domain/vat';
import { mulberry32 as random } from '../support/prng';


describe('vat', () => {
  it('takes the VAT out of a VAT-inclusive price, rounded half up', () => {
    expect(vatInGross(115_00, 1500)).toBe(15_00);
    expect(vatInGross(1, 1500)).toBe(0);
    expect(vatInGross(8, 1500)).toBe(1); // 1.043… → 1
    expect(vatInGross(107_50, 750)).toBe(7_50);
    expect(vatInGross(123_456_789_012, 1500)).toBe(16_103_059_436); // 16,103,059,436.35 → …436
    expect(vatInGross(5000, 0)).toBe(0);
  });

  it('picks the rate of the day the order is placed', () => {
    const rates = [
      { basisPoints: 500, from: '2007-01-01' },
      { basisPoints: 750, from: '2020-02-01' },
      { basisPoints: 1000, from: '2027-01-01' },
    ];
    expect(rateOn(rates, '2020-01-31')).toBe(500);
    expect(rateOn(rates, '2020-02-01')).toBe(750);
    expect(rateOn(rates, '2026-12-31')).toBe(750);
    expect(rateOn(rates, '2027-01-01')).toBe(1000);
    expect(rateOn(rates, '2000-01-01')).toBeNull();
  });

  it('spreads by the largest remainder, adding up exactly', () => {
    expect(shareByWeight(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(shareByWeight(0, [0, 0])).toEqual([0, 0]);
    expect(shareByWeight(7, [0, 5, 0])).toEqual([0, 7, 0]);
  });

  it('rounds the VAT of a rate once, not per line', () => {
    // Three lines of R0.08: per line each would round to R0.01 (R0.03); the whole R0.24 carries R0.03 exactly only by chance: 0.24×15/115 = 0.0313 → 3.
    const lines = vatLines([1, 2, 3].map(() => ({ kind: 'item' as const, grossMinor: 8, basisPoints: 1500 })));
    expect(totalsOf(lines)).toEqual({ netMinor: 21, vatMinor: 3, grossMinor: 24 });
    const ten = vatLines(Array.from({ length: 10 }, () => ({ kind: 'item' as const, grossMinor: 3, basisPoints: 1500 })));
    expect(totalsOf(ten).vatMinor).toBe(vatInGross(30, 1500)); // 4, where rounding each line would say 0
  });

  it('credits an invoice in pieces down to exactly zero', () => {
    const invoice: RateBucket[] = byRate(vatLines([
      { kind: 'item', grossMinor: 999_99, basisPoints: 1500 },
      { kind: 'delivery', grossMinor: 150_00, basisPoints: 0 },
    ]));
    let remaining = invoice;
    const notes: RateBucket[][] = [];
    for (const piece of [100_01, 333_33, 1, 250_00]) {
      const note = creditNoteSplit(remaining, piece);
      expect(totalsOf(note).grossMinor).toBe(piece);
      notes.push(note);
      remaining = remainingOf(invoice, notes.flat());
    }
    const last = creditNoteSplit(remaining, totalsOf(remaining).grossMinor);
    notes.push(last);
    expect(remainingOf(invoice, notes.flat()).every((b) => b.netMinor === 0 && b.vatMinor === 0 && b.grossMinor === 0)).toBe(true);
  });

  it('cuts a credit note to what the invoice still carries', () => {
    const invoice = byRate(vatLines([{ kind: 'item', grossMinor: 1000, basisPoints: 1500 }]));
    expect(totalsOf(creditNoteSplit(invoice, 1001))).toEqual(totalsOf(invoice));
  });

  it('holds for 100,000 random baskets with discounts, credit and partial refunds', () => {
    const next = random(46);
    const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
    const rates = [1500, 750, 0];
    for (let n = 0; n < 100_000; n++) {
      const rate = rates[int(0, 2)]!;
      const items = Array.from({ length: int(1, 6) }, () => ({ unit: int(1, 5_000_000), qty: int(1, 4) }));
      const subtotal = items.reduce((a, i) => a + i.unit * i.qty, 0);
      const discount = next() < 0.4 ? int(0, subtotal) : 0;
      const shares = shareByWeight(discount, items.map((i) => i.unit * i.qty));
      const lines: GrossLine[] = items.map((i, k) => ({ kind: 'item', grossMinor: i.unit * i.qty - shares[k]!, basisPoints: rate }));
      const deliveryTaxed = next() < 0.8;
      if (next() < 0.8) lines.push({ kind: next() < 0.3 ? 'locker_fee' : 'delivery', grossMinor: int(0, 500_000), basisPoints: deliveryTaxed ? rate : 0 });
      if (next() < 0.2) lines.push({ kind: 'gift_wrap', grossMinor: int(0, 50_000), basisPoints: rate });
      const total = subtotal - discount + lines.filter((l) => l.kind !== 'item').reduce((a, l) => a + l.grossMinor, 0);
      // Store credit pays part of it: a way of paying, no input to the VAT, which is the same whatever it is.
      const credit = next() < 0.3 ? int(0, total) : 0;
      void credit;

      const vat = vatLines(lines);
      const t = totalsOf(vat);
      if (t.grossMinor !== total || t.netMinor + t.vatMinor !== total) throw new Error(`basket ${n}: totals ${JSON.stringify(t)} of ${total}`);
      for (const l of vat) if (l.netMinor + l.vatMinor !== l.grossMinor || l.vatMinor < 0 || l.netMinor < 0) throw new Error(`basket ${n}: line ${JSON.stringify(l)}`);
      for (const b of byRate(vat)) if (b.vatMinor !== vatInGross(b.grossMinor, b.basisPoints)) throw new Error(`basket ${n}: rate ${b.basisPoints} rounded apart`);
      if (discount > 0) {
        const undiscounted = totalsOf(vatLines(lines.map((l, k) => (k < items.length ? { ...l, grossMinor: items[k]!.unit * items[k]!.qty } : l))));
        if (undiscounted.vatMinor < t.vatMinor) throw new Error(`basket ${n}: a discount raised the VAT`);
      }

      // Partial refunds, then the rest: never more VAT than is left, exactly zero at the end.
      const invoice = byRate(vat);
      const credited: RateBucket[] = [];
      let left = total;
      for (let r = int(0, 4); r > 0 && left > 0; r--) {
        const amount = int(1, left);
        const note = creditNoteSplit(remainingOf(invoice, credited), amount);
        const nt = totalsOf(note);
        if (nt.grossMinor !== amount || nt.netMinor + nt.vatMinor !== amount) throw new Error(`basket ${n}: credit note ${JSON.stringify(nt)} of ${amount}`);
        credited.push(...note);
        for (const b of remainingOf(invoice, credited)) if (b.vatMinor < 0 || b.netMinor < 0 || b.grossMinor < 0) throw new Error(`basket ${n}: credited beyond the invoice`);
        left -= amount;
      }
      credited.push(...creditNoteSplit(remainingOf(invoice, credited), left));
      for (const b of remainingOf(invoice, credited)) if (b.vatMinor !== 0 || b.netMinor !== 0 || b.grossMinor !== 0) throw new Error(`basket ${n}: ${JSON.stringify(b)} left after the last credit note`);
    }
  });
});
