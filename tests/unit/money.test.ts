import { describe, expect, it } from 'vitest';
import { currencySymbol, formatMoney, toMajor, toMinor } from '@/lib/domain/money';

describe('money', () => {
  it('converts between minor and major units without float drift', () => {
    expect(toMinor(1234.56)).toBe(123456);
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMajor(123456)).toBe(1234.56);
  });

  it('formats naira and rand with their symbols and grouping', () => {
    expect(formatMoney(250000, 'NGN')).toBe('₦250,000');
    expect(formatMoney(1999.5, 'NGN')).toBe('₦1,999.50');
    expect(formatMoney(1500, 'ZAR')).toMatch(/^R\s?1[\s,]500$/);
    expect(currencySymbol('NGN')).toBe('₦');
  });
});
