import { describe, expect, it } from 'vitest';
import { COLLECTION_METHODS, DEFAULT_PAY_ON_DELIVERY_RULES, doorPaymentSentence, MARKET_COLLECTION_METHODS, MAX_REFUSED_DELIVERIES, payOnDeliveryTerms, POD_REFUSALS, type PayOnDeliveryRules } from '@/lib/domain/payment-methods';
import { refusalText, payOnDeliveryRulesSchema } from '@/lib/server/checkout/on-delivery';
import { amountDueMinor, shopperMayCancel } from '@/lib/domain/orders';
import { messageRef } from '@/lib/domain/messages';

const rules: PayOnDeliveryRules = { enabled: true, capMinor: 100_000, ceilingMinor: 1_000_000, depositPercent: 30, maxOpenOrders: 2 };
const none = { openOrders: 0, openMinor: 0 };
const good = { phoneVerified: true, refusedDeliveries: 0, ...none, ...none };

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
    expect(payOnDeliveryTerms(10, rules, { phoneVerified: true, refusedDeliveries: MAX_REFUSED_DELIVERIES, ...none })).toEqual({ allowed: false, reason: 'pod-refused-deliveries' });
    expect(payOnDeliveryTerms(10, rules, { phoneVerified: true, refusedDeliveries: MAX_REFUSED_DELIVERIES - 1, ...none }).allowed).toBe(true);
    expect(payOnDeliveryTerms(10, rules, { phoneVerified: false, refusedDeliveries: 0, ...none })).toEqual({ allowed: false, reason: 'phone-not-verified' });
    // Verifying the phone is the one thing asked only when nothing else stands in the way.
    expect(payOnDeliveryTerms(1_000_001, rules, { phoneVerified: false, refusedDeliveries: 0, ...none })).toMatchObject({ reason: 'pod-above-ceiling' });
  });

  it('counts the shopper\'s open orders: at most maxOpenOrders open, the cap and the ceiling over them together', () => {
    // One open order of 60,000: another of 50,000 goes past the cap together, so it asks its deposit.
    expect(payOnDeliveryTerms(50_000, rules, { ...good, openOrders: 1, openMinor: 60_000 })).toEqual({ allowed: true, depositMinor: 15_000, dueMinor: 35_000 });
    expect(payOnDeliveryTerms(40_000, rules, { ...good, openOrders: 1, openMinor: 60_000 })).toEqual({ allowed: true, depositMinor: 0, dueMinor: 40_000 });
    // Together above the ceiling, or as many open as allowed: online only.
    expect(payOnDeliveryTerms(500_000, rules, { ...good, openOrders: 1, openMinor: 500_001 })).toEqual({ allowed: false, reason: 'pod-open-above-ceiling' });
    expect(payOnDeliveryTerms(10, rules, { ...good, openOrders: 2, openMinor: 20 })).toEqual({ allowed: false, reason: 'pod-open-orders' });
    expect(payOnDeliveryTerms(10, { ...rules, maxOpenOrders: 3 }, { ...good, openOrders: 2, openMinor: 20 }).allowed).toBe(true);
    // The limits come before verifying the phone.
    expect(payOnDeliveryTerms(10, rules, { ...good, phoneVerified: false, openOrders: 2, openMinor: 20 })).toMatchObject({ reason: 'pod-open-orders' });
    expect(refusalText('pod-open-orders', 'NG', rules)).toBe(
      'You have 2 orders to pay on delivery that are not yet delivered. Pay online now, or pay on delivery again once one of them is delivered or cancelled.',
    );
    expect(refusalText('pod-open-above-ceiling', 'NG', { ...rules, ceilingMinor: 300_000_000 })).toMatch(/^Pay on delivery is available for up to ₦3,000,000 in orders not yet delivered/);
  });

  it('says why, in the store\'s words', () => {
    expect(refusalText('pod-above-ceiling', 'NG', DEFAULT_PAY_ON_DELIVERY_RULES.NG)).toBe('Pay on delivery is not available for orders above ₦3,000,000.');
    expect(refusalText('phone-not-verified', 'NG', rules)).toBe('Verify your phone to pay on delivery.');
    expect(refusalText('pod-refused-deliveries', 'NG', rules)).toMatch(/^Pay on delivery is not available on this account after 2 refused deliveries\./);
    expect(refusalText('pod-disabled', 'ZA', rules)).toBe('Pay on delivery is not available in South Africa.');
    // A link can carry each (a plain form post's ?error=).
    for (const r of POD_REFUSALS) {
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

describe('how the door takes the money', () => {
  it('names the market\'s collection methods in one sentence, for the courier or the pickup point', () => {
    expect(doorPaymentSentence(MARKET_COLLECTION_METHODS.NG, 'delivery')).toBe('Our courier accepts cash, card on a POS terminal or bank transfer at your door.');
    expect(doorPaymentSentence(MARKET_COLLECTION_METHODS.ZA, 'collect')).toBe('The pickup point accepts cash, card on a POS terminal or bank transfer.');
    expect(doorPaymentSentence(['transfer', 'cash'], 'delivery')).toBe('Our courier accepts bank transfer or cash at your door.');
    expect(doorPaymentSentence(['cash', 'cash'], 'delivery')).toBe('Our courier accepts cash at your door.');
    expect(doorPaymentSentence([], 'delivery')).toBe('');
  });

  it('offers every market only methods staff can record', () => {
    for (const methods of Object.values(MARKET_COLLECTION_METHODS)) {
      expect(methods.length).toBeGreaterThan(0);
      for (const m of methods) expect(COLLECTION_METHODS).toContain(m);
    }
  });
});
