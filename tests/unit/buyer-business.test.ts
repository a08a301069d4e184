import { describe, expect, it } from 'vitest';
import { buyerBusinessInput } from '@/lib/domain/tax-settings';

/** Checkout's "Buying for a company?": optional, the number in the market's shape and only with its company. */
describe('a company buyer at checkout', () => {
  const za = buyerBusinessInput('ZA');
  const ng = buyerBusinessInput('NG');

  it('is nothing when nothing is given, or only blanks', () => {
    expect(za.parse({})).toBeNull();
    expect(za.parse({ company: '   ', taxNumber: '' })).toBeNull();
    expect(ng.parse({ company: null, taxNumber: null })).toBeNull();
  });

  it('keeps a company alone, or with its number written with spaces', () => {
    expect(za.parse({ company: ' Mkhize Holdings (Pty) Ltd ' })).toEqual({ company: 'Mkhize Holdings (Pty) Ltd', taxNumber: null });
    expect(za.parse({ company: 'Mkhize Holdings', taxNumber: '4123 456 789' })).toEqual({ company: 'Mkhize Holdings', taxNumber: '4123456789' });
    expect(ng.parse({ company: 'Ògúnlẹ́sì & Co', taxNumber: '12345678-0001' })).toEqual({ company: 'Ògúnlẹ́sì & Co', taxNumber: '12345678-0001' });
    expect(ng.parse({ company: 'Ògúnlẹ́sì & Co', taxNumber: '1234567890' })).toMatchObject({ taxNumber: '1234567890' });
  });

  it('refuses a number of another shape, a number without its company and a name too long', () => {
    expect(za.safeParse({ company: 'A', taxNumber: '5123456789' }).error?.issues[0]?.message).toBe('A South African VAT number is 10 digits starting with 4');
    expect(ng.safeParse({ company: 'A', taxNumber: '4123456789-1' }).error?.issues[0]?.message).toMatch(/^A Nigerian TIN is/);
    expect(za.safeParse({ taxNumber: '4123456789' }).error?.issues[0]?.message).toBe('Please enter the company name the tax number belongs to');
    expect(za.safeParse({ company: 'x'.repeat(121) }).error?.issues[0]?.message).toBe('The company name can be at most 120 characters');
  });
});
