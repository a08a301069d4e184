import { describe, expect, it } from 'vitest';
import { message, messageRef, messageText, phoneCodeText } from '@/lib/domain/messages';
import { PHONE_VERIFY_BACK, phoneCodeSentNext, phoneVerifiedNext, phoneVerifyNext } from '@/lib/domain/phone-verification';
import { phoneToVerify, phoneVerified } from '@/lib/server/accounts/phone-verification';

const ORIGIN = 'https://shop.example';

describe('phone verification rules', () => {
  it('a phone is verified while the verified number is the account number', () => {
    expect(phoneVerified({ phoneNumber: '+2348031234567', phoneVerifiedNumber: '+2348031234567' })).toBe(true);
    expect(phoneVerified({ phoneNumber: '+2348031234568', phoneVerifiedNumber: '+2348031234567' })).toBe(false);
    expect(phoneVerified({ phoneNumber: '+2348031234567', phoneVerifiedNumber: null })).toBe(false);
  });

  it('texts only a number stored in E.164 of the shopper\'s markets', () => {
    expect(phoneToVerify({ phoneNumber: '+2348031234567', country: 'nigeria' })).toBe('+2348031234567');
    expect(phoneToVerify({ phoneNumber: '+27821234567', country: 'nigeria' })).toBe('+27821234567');
    expect(phoneToVerify({ phoneNumber: '0803 123 4567', country: 'nigeria' })).toBeNull();
    expect(phoneToVerify({ phoneNumber: '+442079460958', country: 'nigeria' })).toBeNull();
  });

  it('goes back only to a path on this site', () => {
    expect(phoneVerifyNext('/settings', null, ORIGIN)).toBe('/settings');
    expect(phoneVerifyNext(undefined, '/place-order?payment=on_delivery', ORIGIN)).toBe('/place-order?payment=on_delivery');
    for (const hostile of ['//evil.example', 'https://evil.example/', '/\\evil.example', '/.//evil.example', 'javascript:alert(1)', '']) {
      expect(phoneVerifyNext(hostile, hostile, ORIGIN), hostile).toBe(PHONE_VERIFY_BACK);
    }
  });

  it('"Send code" comes back to the code field', () => {
    expect(phoneCodeSentNext(undefined, '/place-order?payment=on_delivery', ORIGIN)).toBe('/place-order?payment=on_delivery#verify-phone-code');
    expect(phoneCodeSentNext('/settings#top', null, ORIGIN)).toBe('/settings#verify-phone-code');
    expect(phoneCodeSentNext('//evil.example', null, ORIGIN)).toBe(`${PHONE_VERIFY_BACK}#verify-phone-code`);
  });

  it('"Verify" comes back to PAY & PLACE ORDER on checkout, where the step stood, and as asked elsewhere', () => {
    expect(phoneVerifiedNext(undefined, '/place-order?payment=on_delivery', ORIGIN)).toBe('/place-order?payment=on_delivery#place-order-pay');
    expect(phoneVerifiedNext('/place-order#verify-phone-code', null, ORIGIN)).toBe('/place-order#place-order-pay');
    expect(phoneVerifiedNext('//evil.example', null, ORIGIN)).toBe(`${PHONE_VERIFY_BACK}#place-order-pay`);
    expect(phoneVerifiedNext('/settings', null, ORIGIN)).toBe('/settings');
    expect(phoneVerifiedNext('/place-orders-list', null, ORIGIN)).toBe('/place-orders-list');
  });

  it('the texts: the code message, and a link notice that carries only an E.164 number', () => {
    expect(phoneCodeText('0420', 10)).toBe('Maison Luxe: your code is 0420. It expires in 10 minutes.');
    const sent = message('phone-code-sent', '+2348031234567');
    expect(sent).toBe('We sent a code to +2348031234567.');
    expect(messageRef(sent)).toBe('phone-code-sent:+2348031234567');
    expect(messageText('phone-code-sent:+27821234567')).toBe('We sent a code to +27821234567.');
    for (const bad of ['phone-code-sent:Call us', 'phone-code-sent:+44 20 7946', 'phone-code-sent:+1555', 'phone-code-sent']) expect(messageText(bad), bad).toBeNull();
    expect(messageRef('We sent a code to the attacker.')).toBeNull();
    expect(messageRef('Your phone is verified.')).toBe('phone-verified');
  });
});
