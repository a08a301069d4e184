import { describe, expect, it } from 'vitest';
import { parsePromotionInput } from '@/lib/domain/promotion-input';

describe('promotion input (back office)', () => {
  it("reads the testers' short form: { code, percentOff, usageLimit }", () => {
    expect(parsePromotionInput({ code: ' spring-10 ', percentOff: 10, usageLimit: 1 })).toMatchObject({ code: 'SPRING-10', kind: 'percent', percentOff: 10, usageLimit: 1 });
  });
  it('keeps amounts per market in minor units; a fixed code without a rand amount has no ZA entry', () => {
    const input = parsePromotionInput({ code: 'NAIRA', amountOff: { NG: '2,500.50', ZA: '' }, minSubtotal: { NG: 10000 } });
    expect(input).toMatchObject({ kind: 'fixed', amountOff: { NG: 250050 }, minSubtotal: { NG: 1000000 } });
    expect(input.amountOff).not.toHaveProperty('ZA');
  });
  it('reads a form: flat market fields, ticked categories, unticked boxes false, datetime-local as UTC', () => {
    const input = parsePromotionInput(
      { form: '1', code: 'abc', kind: 'fixed', percentOff: '', 'amountOff.NG': '100', 'amountOff.ZA': '5', 'category.3': true, 'category.7': true, startsAt: '2026-12-01T09:00', endsAt: '', usageLimit: '', status: 'paused' },
      { form: true },
    );
    expect(input).toMatchObject({ kind: 'fixed', amountOff: { NG: 10000, ZA: 500 }, categoryIds: [3, 7], oncePerCustomer: false, firstOrderOnly: false, usageLimit: null, endsAt: null, status: 'paused' });
    expect(input.startsAt?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(parsePromotionInput({ code: 'abc', kind: 'percent', percentOff: '5' }, { form: true }).categoryIds).toBeNull();
  });
  it('refuses bad input with a text', () => {
    for (const bad of [{ code: 'a b', percentOff: 1 }, { percentOff: 0 }, { amountOff: { XX: 1 } }, { amountOff: { NG: 1.234 } }, { usageLimit: -1 }, { startsAt: 'soon' }, { startsAt: '2027-01-01', endsAt: '2026-01-01' }, { other: 1 }, [], null]) {
      expect(() => parsePromotionInput(bad)).toThrow();
    }
  });
});
