import { describe, expect, it } from 'vitest';
import { calendarDayIn, creditToUse, deliveredAtOn, exchangeDifference, returnActionAllowed, returnWindowClosesAt, returnWindowOpen, splitReturnMoney, whatsappLink } from '@/lib/domain/after-sales';
import { returnActionSchema, returnRequestSchema } from '@/lib/domain/after-sales-input';
import { paymentStateOf } from '@/lib/domain/orders';
import { orderMoneyTotals } from '@/lib/domain/order-money';
import { sizeGuideFor } from '@/lib/domain/size-guides';

describe('the return window', () => {
  const delivered = new Date('2026-11-20T11:00:00Z');
  it('is open for 3 days after delivery, on delivered orders only', () => {
    expect(returnWindowClosesAt(delivered).toISOString()).toBe('2026-11-23T11:00:00.000Z');
    expect(returnWindowOpen({ status: 'delivered', deliveredAt: delivered }, new Date('2026-11-23T10:59:59Z'))).toBe(true);
    expect(returnWindowOpen({ status: 'delivered', deliveredAt: delivered }, new Date('2026-11-23T11:00:00Z'))).toBe(false);
    expect(returnWindowOpen({ status: 'processed', deliveredAt: null }, delivered)).toBe(false);
  });
});

describe('"Delivered on" a day of the market\'s calendar', () => {
  const lagos = 'Africa/Lagos';
  const joburg = 'Africa/Johannesburg';
  const orderedAt = new Date('2026-11-20T09:00:00Z');
  it('today is accepted at the actual time, early in the morning too (07:00 in Lagos is 06:00 UTC, in Johannesburg 05:00)', () => {
    for (const [now, timeZone] of [
      [new Date('2026-11-26T06:00:00Z'), lagos],
      [new Date('2026-11-26T05:00:00Z'), joburg],
      // Half past midnight in Lagos is still yesterday in UTC.
      [new Date('2026-11-25T23:30:00Z'), lagos],
    ] as const) {
      expect(deliveredAtOn('2026-11-26', { now, orderedAt, timeZone })).toEqual(now);
    }
    expect(calendarDayIn(new Date('2026-11-25T23:30:00Z'), lagos)).toBe('2026-11-26');
    expect(calendarDayIn(new Date('2026-11-25T21:59:00Z'), joburg)).toBe('2026-11-25');
  });
  it('an earlier day is noon there, never before the order; the future, a day before the order or no real day is refused', () => {
    const now = new Date('2026-11-26T06:00:00Z');
    expect(deliveredAtOn('2026-11-24', { now, orderedAt, timeZone: lagos })!.toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(deliveredAtOn('2026-11-24', { now, orderedAt, timeZone: joburg })!.toISOString()).toBe('2026-11-24T10:00:00.000Z');
    expect(deliveredAtOn('2026-11-20', { now, orderedAt: new Date('2026-11-20T12:30:00Z'), timeZone: lagos })!.toISOString()).toBe('2026-11-20T12:30:00.000Z');
    for (const day of ['2026-11-27', '2026-11-19', '2026-02-30', '26-11-2026', '']) expect(deliveredAtOn(day, { now, orderedAt, timeZone: lagos })).toBeNull();
    // A day that is tomorrow in UTC but today in Lagos is not the future.
    expect(deliveredAtOn('2026-11-26', { now: new Date('2026-11-25T23:30:00Z'), orderedAt, timeZone: lagos })).not.toBeNull();
  });
});

describe('where a return\'s money goes', () => {
  it('to the payment first, never more than is left of it; the rest as credit, or a recorded transfer for cash', () => {
    expect(splitReturnMoney({ amountMinor: 50_000, to: 'payment', onlineLeftMinor: 80_000, paidCash: false })).toEqual({ toPaymentMinor: 50_000, toCreditMinor: 0, byTransferMinor: 0 });
    expect(splitReturnMoney({ amountMinor: 50_000, to: 'payment', onlineLeftMinor: 30_000, paidCash: false })).toEqual({ toPaymentMinor: 30_000, toCreditMinor: 20_000, byTransferMinor: 0 });
    expect(splitReturnMoney({ amountMinor: 50_000, to: 'payment', onlineLeftMinor: 10_000, paidCash: true, cashBy: 'transfer' })).toEqual({ toPaymentMinor: 10_000, toCreditMinor: 0, byTransferMinor: 40_000 });
    expect(splitReturnMoney({ amountMinor: 50_000, to: 'credit', onlineLeftMinor: 80_000, paidCash: false })).toEqual({ toPaymentMinor: 0, toCreditMinor: 50_000, byTransferMinor: 0 });
  });
  it('store credit at checkout: what the shopper has, never more than the total', () => {
    expect(creditToUse(5_000, 12_000)).toBe(5_000);
    expect(creditToUse(50_000, 12_000)).toBe(12_000);
    expect(creditToUse(-1, 12_000)).toBe(0);
  });
});

describe('staff steps', () => {
  it('apply only from the right status, ship only an exchange, refund or credit only money back', () => {
    expect(returnActionAllowed('approve', 'requested', 'refund')).toBe(true);
    expect(returnActionAllowed('approve', 'approved', 'refund')).toBe(false);
    expect(returnActionAllowed('ship', 'received', 'refund')).toBe(false);
    expect(returnActionAllowed('ship', 'received', 'exchange')).toBe(true);
    expect(returnActionAllowed('refund', 'received', 'exchange')).toBe(false);
    expect(returnActionAllowed('credit', 'received', 'refund')).toBe(true);
    expect(returnActionAllowed('reject', 'received', 'credit')).toBe(false);
  });
  it('read the back office forms: received and damaged per line', () => {
    expect(returnActionSchema.parse({ action: 'receive', 'received-7': '2', 'damaged-7': '1', _csrf: 'x' })).toEqual({ action: 'receive', items: [{ id: 7, received: 2, damaged: 1 }] });
    expect(() => returnActionSchema.parse({ action: 'reject', reason: '' })).toThrow('Please give a reason.');
    // No typed tracking number: the courier's booking gives it.
    expect(returnActionSchema.parse({ action: 'ship', trackingNumber: 'typed', _csrf: 'x' })).toEqual({ action: 'ship' });
  });
});

describe('a return request', () => {
  it('reads the plain form: chosen lines only, an exchange only when one is asked for', () => {
    const form = { 'quantity-3': '1', 'quantity-4': '0', 'exchange-3': '11', reason: 'too_small', resolution: 'refund', method: 'drop_off' };
    expect(returnRequestSchema.parse(form)).toEqual({ items: [{ orderItemId: 3, quantity: 1 }], reason: 'too_small', resolution: 'refund', method: 'drop_off' });
    expect(returnRequestSchema.parse({ ...form, resolution: 'exchange' }).items).toEqual([{ orderItemId: 3, quantity: 1, exchangeVariantId: 11 }]);
    expect(() => returnRequestSchema.parse({ ...form, 'quantity-3': '0' })).toThrow('Choose at least one item to return.');
    expect(() => returnRequestSchema.parse({ ...form, reason: 'bored' })).toThrow('Please choose a reason.');
  });
});

describe('what shoppers read', () => {
  it('the payment state beside the status: a just-paid order never looks unpaid', () => {
    expect(paymentStateOf({ status: 'pending', dueMinor: 0 }, { status: 'fulfilled', amountMinor: 10_000 })).toBe('Paid');
    expect(paymentStateOf({ status: 'pending', dueMinor: 10_000 }, { status: 'fulfilled', amountMinor: 0 })).toBe('To pay on delivery');
    expect(paymentStateOf({ status: 'cancelled', dueMinor: 0 }, { status: 'refunded', amountMinor: 10_000 })).toBe('Refunded');
    expect(paymentStateOf({ status: 'cancelled', dueMinor: 0 }, { status: 'fulfilled', amountMinor: 0 })).toBe('Nothing charged');
  });
  it('a size guide per kind of size', () => {
    expect(sizeGuideFor(['EU 37', 'EU 38'])?.columns).toEqual(['EU', 'UK', 'US women', 'US men', 'Foot length (cm)']);
    expect(sizeGuideFor(['XS', 'S', 'M'])?.rows[0]).toEqual(['XS', '6', '80–83', '62–65', '87–90']);
    expect(sizeGuideFor(['80 cm'])?.title).toBe('Belts');
    expect(sizeGuideFor([])).toBeNull();
  });
  it('a WhatsApp link prefilled with the tracking number', () => {
    expect(whatsappLink('+234 801 234 5678', 'ML-ABCDEFGH')).toBe('https://wa.me/2348012345678?text=Hello%2C%20I%20need%20help%20with%20my%20order%20ML-ABCDEFGH.');
  });
});

describe('what an order may still give back', () => {
  it('a return is capped by what the order has left, in cash and credit together', () => {
    // Refunded in full by amount already: nothing more, neither to the card nor as credit.
    expect(splitReturnMoney({ amountMinor: 29_000_000, to: 'payment', onlineLeftMinor: 0, orderLeftMinor: 0, paidCash: false })).toEqual({ toPaymentMinor: 0, toCreditMinor: 0, byTransferMinor: 0 });
    expect(splitReturnMoney({ amountMinor: 29_000_000, to: 'payment', onlineLeftMinor: 19_000_000, orderLeftMinor: 19_000_000, paidCash: false })).toEqual({ toPaymentMinor: 19_000_000, toCreditMinor: 0, byTransferMinor: 0 });
    expect(splitReturnMoney({ amountMinor: 50_000, to: 'credit', onlineLeftMinor: 0, orderLeftMinor: 20_000, paidCash: false })).toEqual({ toPaymentMinor: 0, toCreditMinor: 20_000, byTransferMinor: 0 });
  });
  it('reads taken, given back and left from the rows of the account', () => {
    expect(
      orderMoneyTotals([
        { kind: 'charged', amountMinor: 100 },
        { kind: 'credit_used', amountMinor: 50 },
        { kind: 'refunded', amountMinor: -80 },
        { kind: 'refund_released', amountMinor: 30 },
        { kind: 'credited', amountMinor: -20 },
      ]),
    ).toEqual({ takenMinor: 150, givenBackMinor: 70, leftMinor: 80 });
  });
});

describe("an exchange's difference", () => {
  const shirt = { lineUnitPriceMinor: 12_000_000, lineTotalMinor: 12_000_000, lineDiscountMinor: 2_400_000, lineQuantity: 1, units: 1 };
  it('is priced against what was paid after the discount share, not the list price', () => {
    expect(exchangeDifference({ ...shirt, newUnitPriceMinor: 10_500_000, originalUnitPriceNowMinor: 12_000_000 })).toBe(-1_200_000);
    expect(exchangeDifference({ ...shirt, newUnitPriceMinor: 13_000_000, originalUnitPriceNowMinor: 12_000_000 })).toBe(800_000);
    expect(exchangeDifference({ ...shirt, newUnitPriceMinor: 12_000_000, originalUnitPriceNowMinor: null })).toBe(0);
  });
  it('moves no money for a price cut or rise since the purchase', () => {
    expect(exchangeDifference({ ...shirt, newUnitPriceMinor: 10_000_000, originalUnitPriceNowMinor: 10_000_000 })).toBe(0);
    expect(exchangeDifference({ ...shirt, newUnitPriceMinor: 15_000_000, originalUnitPriceNowMinor: 15_000_000 })).toBe(0);
    // Only the original was cut: the new piece costs less than was paid, but no less than the original does today.
    expect(exchangeDifference({ ...shirt, newUnitPriceMinor: 10_500_000, originalUnitPriceNowMinor: 10_000_000 })).toBe(0);
  });
  it('prices some units of a line, exactly for large amounts', () => {
    const line = { lineUnitPriceMinor: 3_333_333_333, lineTotalMinor: 9_999_999_999, lineDiscountMinor: 1_234_567_891, lineQuantity: 3, units: 2 };
    const d = exchangeDifference({ ...line, newUnitPriceMinor: 2_000_000_000, originalUnitPriceNowMinor: 3_333_333_333 });
    const exact = (BigInt(2_000_000_000 - 3_333_333_333) * 2n * BigInt(9_999_999_999 - 1_234_567_891)) / 9_999_999_999n;
    expect(d).toBe(Number(exact));
  });
});
