import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@/lib/domain/messages';
import { isE164, normalisePhone } from '@/lib/domain/phone';

const e164 = (raw: string, country: 'nigeria' | 'south_africa') => normalisePhone(raw, country);

describe('phone numbers in E.164, by the shopper\'s country', () => {
  it('reads a Nigerian number in its national form, with or without the trunk 0, or in international form', () => {
    for (const raw of ['0803 123 4567', '08031234567', '0803-123-4567', '(0803) 123 4567', '8031234567', '+234 803 123 4567', '+2348031234567', '+234 0803 123 4567', '002348031234567', '2348031234567']) {
      expect(e164(raw, 'nigeria'), raw).toEqual({ ok: true, e164: '+2348031234567' });
    }
    expect(e164('0909 555 0101', 'nigeria')).toEqual({ ok: true, e164: '+2349095550101' });
    expect(e164('0701 234 5678', 'nigeria')).toEqual({ ok: true, e164: '+2347012345678' });
    // A Lagos fixed line: 01 + 7 digits.
    expect(e164('01 234 5678', 'nigeria')).toEqual({ ok: true, e164: '+23412345678' });
  });

  it('reads a South African number in its national form or in international form', () => {
    for (const raw of ['082 123 4567', '0821234567', '821234567', '+27 82 123 4567', '+27821234567', '+27 (0)82 123 4567', '0027821234567', '27821234567']) {
      expect(e164(raw, 'south_africa'), raw).toEqual({ ok: true, e164: '+27821234567' });
    }
    expect(e164('011 123 4567', 'south_africa')).toEqual({ ok: true, e164: '+27111234567' });
  });

  it("keeps a number of the other market in international form, whatever the shopper's country", () => {
    expect(e164('+27 82 123 4567', 'nigeria')).toEqual({ ok: true, e164: '+27821234567' });
    expect(e164('+234 803 123 4567', 'south_africa')).toEqual({ ok: true, e164: '+2348031234567' });
  });

  it('says clearly what is wrong with a bad number', () => {
    expect(e164('call me', 'nigeria')).toEqual({ ok: false, message: MESSAGES['phone-invalid'] });
    expect(e164('', 'nigeria')).toEqual({ ok: false, message: MESSAGES['phone-invalid'] });
    expect(e164('0803 123 456', 'nigeria')).toEqual({ ok: false, message: MESSAGES['phone-invalid-ng'] });
    expect(e164('0803 123 45678', 'nigeria')).toEqual({ ok: false, message: MESSAGES['phone-invalid-ng'] });
    expect(e164('0603 123 4567', 'nigeria')).toEqual({ ok: false, message: MESSAGES['phone-invalid-ng'] });
    expect(e164('082 123 456', 'south_africa')).toEqual({ ok: false, message: MESSAGES['phone-invalid-za'] });
    expect(e164('092 123 4567', 'south_africa')).toEqual({ ok: false, message: MESSAGES['phone-invalid-za'] });
    expect(e164('+44 20 7946 0958', 'nigeria')).toEqual({ ok: false, message: MESSAGES['phone-other-country'] });
    expect(MESSAGES['phone-invalid-ng']).toBe('Please enter a valid Nigerian phone number, e.g. 0803 123 4567');
  });

  it('knows a stored number that is already in E.164', () => {
    expect(isE164('+2348031234567')).toBe(true);
    expect(isE164('+27821234567')).toBe(true);
    expect(isE164('+234 803 123 4567')).toBe(false);
    expect(isE164('08031234567')).toBe(false);
    expect(isE164('+23408031234567')).toBe(false);
  });
});
