import { describe, expect, it } from 'vitest';
import { DEFAULT_PAY_ON_DELIVERY_RULES, MAX_REFUSED_DELIVERIES, payOnDeliveryTerms, type PayOnDeliveryRules } from '@/lib/domain/payment-methods';
import { refusalText, payOnDeliveryRulesSchema } from '@/lib/server/checkout/on-delivery';
import { amountDueMinor, shopperMayCancel } from '@/lib/domain/orders';
import { messageRef } from '@/lib/domain/messages';

const rules: PayOnDeliveryRules = { enabled: true, capMinor: 100_000, ceilingMinor: 1_000_000, depositPercent: 30 };
const good = { phoneVerified: true, refusedDeliveries: 0 };

describe('pay on delivery terms', () => {
  it('is paid wholly at the door up to the cap', () => {
    expect(payOnDeliveryTerms(50_000, rules, good)).toEqual({ allowed: true, depositMinor: 0, dueMinor: 50_000 });
    expect(payOnDeliveryTerms(100_000, rules, good)).toEqual({ allowed: true, depositMinor: 0, dueMinor: 100_000 });
  });

  it('asks a deposit (the share of the total, rounded up) above the cap, up to the ceiling', () => {
    expect(payOnDeliveryTerms(100_001, rules, good)).toEqual({ allowed: true, depositMinor: 30_001, dueMinor: 70_000 });
    expect(payOnDeliveryTerms(1_000_000, rules, good)).toEqual({ allowed: true, depositMinor: 300_000, dueMinor: 700_000 });
    const all = payOnDeliveryTerms(500_000, { ...rules, depositPercent: 100 }, good);
    expect(all).toEqual({ allowed: true, depositMinor: 500_000, dueMinor: 0 });
  });

  it('is online only above the ceiling, when disabled, after refused deliveries, and without a verified phone', () => {
    expect(payOnDeliveryTerms(1_000_001, rules, good)).toEqual({ allowed: false, reason: 'pod-above-ceiling' });
    expect(payOnDeliveryTerms(10, { ...rules, enabled: false }, good)).toEqual({ allowed: false, reason: 'pod-disabled' });
    expect(payOnDeliveryTerms(10, rules, { phoneVerified: true, refusedDeliveries: MAX_REFUSED_DELIVERIES })).toEqual({ allowed: false, reason: 'pod-refused-deliveries' });
    expect(payOnDeliveryTerms(10, rules, { phoneVerified: true, refusedDeliveries: MAX_REFUSED_DELIVERIES - 1 }).allowed).toBe(true);
    expect(payOnDeliveryTerms(10, rules, { phoneVerified: false, refusedDeliveries: 0 })).toEqual({ allowed: false, reason: 'phone-not-verified' });
    // Verifying the phone is the one thing asked only when nothing else stands in the way.
    expect(payOnDeliveryTerms(1_000_001, rules, { phoneVerified: false, refusedDeliveries: 0 })).toMatchObject({ reason: 'pod-above-ceiling' });
  });

  it('says why, in the store\'s words', () => {
    expect(refusalText('pod-above-ceiling', 'NG', DEFAULT_PAY_ON_DELIVERY_RULES.NG)).toBe('Pay on delivery is not available for orders above ₦3,000,000.');
    expect(refusalText('phone-not-verified', 'NG', rules)).toBe('Verify your phone to pay on delivery.');
    expect(refusalText('pod-refused-deliveries', 'NG', rules)).toMatch(/^Pay on delivery is not available on this account after 2 refused deliveries\./);
    expect(refusalText('pod-disabled', 'ZA', rules)).toBe('Pay on delivery is not available in South Africa.');
    // A link can carry each (a plain form post's ?error=).
    for (const r of ['pod-above-ceiling', 'phone-not-verified', 'pod-refused-deliveries', 'pod-disabled'] as const) {
      expect(messageRef(refusalText(r, 'ZA', DEFAULT_PAY_ON_DELIVERY_RULES.ZA))).not.toBeNull();
    }
  });

  it('validates staff rules', () => {
    expect(payOnDeliveryRulesSchema.safeParse({ enabled: 'on', capMinor: '100', ceilingMinor: '200', depositPercent: '30' }).success).toBe(true);
    expect(payOnDeliveryRulesSchema.safeParse({ enabled: true, capMinor: 300, ceilingMinor: 200, depositPercent: 30 }).success).toBe(false);
    expect(payOnDeliveryRulesSchema.safeParse({ enabled: true, capMinor: 1, ceilingMinor: 2, depositPercent: 0 }).success).toBe(false);
    expect(payOnDeliveryRulesSchema.safeParse({ enabled: true, capMinor: -1, ceilingMinor: 2, depositPercent: 10 }).success).toBe(false);
  });

  it('knows what is still due and whether the shopper may cancel', () => {
    expect(amountDueMinor({ status: 'pending', dueOnDeliveryMinor: 500, collectionOutcome: null })).toBe(500);
    expect(amountDueMinor({ status: 'processed', dueOnDeliveryMinor: 500, collectionOutcome: 'paid' })).toBe(0);
    expect(amountDueMinor({ status: 'cancelled', dueOnDeliveryMinor: 500, collectionOutcome: null })).toBe(0);
    expect(shopperMayCancel({ status: 'pending', collectionOutcome: null })).toBe(true);
    expect(shopperMayCancel({ status: 'processed', collectionOutcome: null })).toBe(false);
    expect(shopperMayCancel({ status: 'pending', collectionOutcome: 'refused' })).toBe(false);
  });
});
