import { describe, expect, it } from 'vitest';
import { anonymousEmail, cutAddress, deleteAccountInput, downloadInput, recentlyProved, SHOPPER_CONFIRM_FRESH_MS, STAFF_CONFIRM_FRESH_MS } from '@/lib/domain/privacy';

describe('the shopper data rules', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('a session signed in within a day, or proved with a code within a day, needs no new code', () => {
    expect(recentlyProved({ createdAt: hoursAgo(23), confirmedAt: null }, now, SHOPPER_CONFIRM_FRESH_MS)).toBe(true);
    expect(recentlyProved({ createdAt: hoursAgo(25), confirmedAt: null }, now, SHOPPER_CONFIRM_FRESH_MS)).toBe(false);
    expect(recentlyProved({ createdAt: hoursAgo(48), confirmedAt: hoursAgo(2) }, now, SHOPPER_CONFIRM_FRESH_MS)).toBe(true);
    // Staff: only a code counts, for 15 minutes.
    expect(recentlyProved({ createdAt: new Date(0), confirmedAt: new Date(now.getTime() - 14 * 60_000) }, now, STAFF_CONFIRM_FRESH_MS)).toBe(true);
    expect(recentlyProved({ createdAt: new Date(0), confirmedAt: new Date(now.getTime() - 16 * 60_000) }, now, STAFF_CONFIRM_FRESH_MS)).toBe(false);
  });

  it('a delivery address is cut to city, state and country', () => {
    const cut = cutAddress({ id: 'a1', name: 'Ada Obi', country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: '12 Allen Avenue', zipCode: '100271' });
    expect(cut).toEqual({ id: '', name: 'Deleted account', country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: '', zipCode: '' });
  });

  it('an erased account keeps a unique address that names nobody and cannot receive mail', () => {
    expect(anonymousEmail('0b6f2c1e-0000-4000-8000-000000000001')).toBe('erased-0b6f2c1e-0000-4000-8000-000000000001@erased.invalid');
  });

  it('forms: the code is 4 digits; an empty code is no code; a ticked box gives up credit', () => {
    expect(downloadInput.parse({ code: '' })).toEqual({ code: undefined });
    expect(downloadInput.parse({ code: '0123' })).toEqual({ code: '0123' });
    expect(() => deleteAccountInput.parse({ code: '12' })).toThrow('Please enter a valid 4-digit OTP');
    expect(deleteAccountInput.parse({ code: '1234', giveUpCredit: true })).toEqual({ code: '1234', giveUpCredit: true });
    expect(deleteAccountInput.parse({ code: '1234' })).toEqual({ code: '1234', giveUpCredit: false });
  });
});
