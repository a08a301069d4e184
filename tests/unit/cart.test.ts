import { describe, expect, it } from 'vitest';
import { addToCartSchema, changeQuantitySchema, deliveryOptionSchema, discountCodeSchema } from '@/lib/domain/cart-input';
import { apiOrder } from '@/lib/domain/orders';
import {
  cartTotals,
  lineTotalMinor,
  maxQuantityFor,
  MAX_LINE_QUANTITY,
  sameLine,
  variantLabel,
} from '@/lib/domain/cart';
import { assertQuantityAllowed } from '@/lib/domain/cart-limits';
import {
  apiDeliveryOption,
  defaultDeliveryOption,
  deliveryFeeMinor,
  DEFAULT_DELIVERY_SPEED,
  FREE_EXPRESS_FROM_MINOR,
  freeExpressFromMinor,
  lowestDeliveryFeeMinor,
  deliverySpeed,
  DELIVERY_SPEEDS,
  estimatedDelivery,
  pickupLocationFor,
} from '@/lib/domain/shipping';

describe('cart rules', () => {
  it('prices a line as unit price times quantity', () => {
    expect(lineTotalMinor(1_250_050, 3)).toBe(3_750_150);
  });

  it('limits a line to min(stock, 10)', () => {
    expect(maxQuantityFor(4)).toBe(4);
    expect(maxQuantityFor(40)).toBe(MAX_LINE_QUANTITY);
    expect(maxQuantityFor(0)).toBe(0);
    expect(() => assertQuantityAllowed(4, 4, 'Tote')).not.toThrow();
    expect(() => assertQuantityAllowed(5, 4, 'Tote')).toThrow('Only 4 of Tote left in stock');
    expect(() => assertQuantityAllowed(11, 40, 'Tote')).toThrow('You can buy at most 10 of one item');
    expect(() => assertQuantityAllowed(12, 11, 'Tote')).toThrow('You can buy at most 10 of one item');
    expect(() => assertQuantityAllowed(1, 0, 'Tote')).toThrow('Tote is out of stock');
    expect(() => assertQuantityAllowed(0, 5, 'Tote')).toThrow('Quantity must be at least 1');
  });

  it('ignores a client price and defaults quantity to 1', () => {
    const parsed = addToCartSchema.parse({ productId: '12', color: 'Black', size: '', price: 1 });
    expect(parsed).toEqual({ productId: 12, color: 'Black', size: undefined, quantity: 1 });
    expect(addToCartSchema.safeParse({ productId: 1, quantity: 0 }).success).toBe(false);
    expect(addToCartSchema.safeParse({ productId: 1, quantity: 11 }).success).toBe(false);
    expect(changeQuantitySchema.parse({ productId: 1 }).quantity).toBeUndefined();
  });

  it('names variants and matches lines by product, colour and size', () => {
    expect(variantLabel('Tote', 'Black', null)).toBe('Tote (Black)');
    expect(variantLabel('Dress', 'Ivory', 'M')).toBe('Dress (Ivory, M)');
    expect(sameLine({ productId: 1, color: 'Black', size: null }, { productId: 1, color: 'Black', size: null })).toBe(true);
    expect(sameLine({ productId: 1, color: 'Black', size: 'S' }, { productId: 1, color: 'Black', size: 'M' })).toBe(false);
  });

  it('sums totals in minor units without float drift', () => {
    expect(cartTotals([{ unitPrice: 0.1, quantity: 3 }, { unitPrice: 0.2, quantity: 1 }], 0)).toEqual({ subtotal: 0.5, total: 0.5 });
    expect(cartTotals([{ unitPrice: 24150, quantity: 2 }], 5000)).toEqual({ subtotal: 48300, total: 53300 });
  });

  it('takes a discount off the subtotal, never more than it, and never off delivery', () => {
    expect(cartTotals([{ unitPrice: 24150, quantity: 2 }], 5000, 9660)).toEqual({ subtotal: 48300, total: 43640 });
    expect(cartTotals([{ unitPrice: 0.1, quantity: 3 }], 0.5, 0.07)).toEqual({ subtotal: 0.3, total: 0.73 });
    // A smaller cart shown before the server answers: the discount is capped at the subtotal.
    expect(cartTotals([{ unitPrice: 100, quantity: 1 }], 50, 250)).toEqual({ subtotal: 100, total: 50 });
  });

  it('reads a discount code: trimmed, and an empty or overlong one is not valid', () => {
    expect(discountCodeSchema.parse({ code: '  save10 ' }).code).toBe('save10');
    for (const code of ['', '   ', 'x'.repeat(65), 'a\u0000b', undefined]) {
      const r = discountCodeSchema.safeParse({ code });
      expect(r.success, String(code)).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('This code is not valid.');
    }
  });
});

describe('shipping rules', () => {
  it('charges delivery by country and nothing for pickup', () => {
    expect(deliveryFeeMinor('collect', 'NGN', 'nigeria')).toBe(0);
    expect(deliveryFeeMinor('delivery', 'NGN', 'nigeria')).toBe(1_000_000);
    expect(deliveryFeeMinor('delivery', 'NGN', 'south_africa')).toBeGreaterThan(1_000_000);
    expect(deliveryFeeMinor('delivery', 'NGN', null)).toBeNull();
  });

  it('defaults to delivery only with a default address', () => {
    expect(defaultDeliveryOption(true)).toBe('delivery');
    expect(defaultDeliveryOption(false)).toBe('collect');
  });

  it('calls collecting at the boutique collect, and the API still says and takes pickup', () => {
    expect(deliveryOptionSchema.parse({ deliveryOption: 'pickup' }).deliveryOption).toBe('collect');
    expect(deliveryOptionSchema.parse({ deliveryOption: 'collect' }).deliveryOption).toBe('collect');
    expect(deliveryOptionSchema.safeParse({ deliveryOption: 'drone' }).success).toBe(false);
    expect([apiDeliveryOption('collect'), apiDeliveryOption('delivery')]).toEqual(['pickup', 'delivery']);
    expect(apiOrder({ id: 'o1', deliveryOption: 'collect' as const })).toEqual({ id: 'o1', deliveryOption: 'pickup' });
  });

  it('picks the pickup store in the shopper\'s country', () => {
    expect(pickupLocationFor('nigeria').city).toBe('Ikoyi');
    expect(pickupLocationFor('south_africa').city).toBe('Johannesburg');
    expect(pickupLocationFor(null).state).toBe('Lagos');
  });

  it('offers Express, Standard and Economy with their days', () => {
    expect(DELIVERY_SPEEDS.map((s) => `${s.name} ${s.days}`)).toEqual(['Express 1-2 business days', 'Standard 3-5 days', 'Economy 5-7 days']);
    expect(deliverySpeed('standard')?.name).toBe('Standard');
    expect(deliverySpeed('teleport')).toBeUndefined();
    const [express, standard, economy] = DELIVERY_SPEEDS;
    expect(express!.feeMinor.NGN).toBeGreaterThan(standard!.feeMinor.NGN);
    expect(standard!.feeMinor.NGN).toBeGreaterThan(economy!.feeMinor.NGN);
  });

  it('charges the chosen speed, Standard when none was chosen', () => {
    expect(DEFAULT_DELIVERY_SPEED).toBe('standard');
    expect(deliveryFeeMinor('delivery', 'NGN', 'nigeria', 'express')).toBe(1_500_000);
    expect(deliveryFeeMinor('delivery', 'ZAR', 'south_africa', 'economy')).toBe(12_000);
    expect(deliveryFeeMinor('delivery', 'ZAR', 'south_africa')).toBe(18_000);
    expect(deliveryFeeMinor('collect', 'ZAR', 'south_africa', 'express')).toBe(0);
  });

  it('makes Express free at home from the market\'s threshold, and nothing else', () => {
    const ng = FREE_EXPRESS_FROM_MINOR.NG!;
    const za = FREE_EXPRESS_FROM_MINOR.ZA!;
    expect(freeExpressFromMinor('NGN')).toBe(ng);
    expect(deliveryFeeMinor('delivery', 'NGN', 'nigeria', 'express', ng - 1)).toBe(1_500_000);
    expect(deliveryFeeMinor('delivery', 'NGN', 'nigeria', 'express', ng)).toBe(0);
    expect(deliveryFeeMinor('delivery', 'NGN', 'nigeria', 'standard', ng * 2)).toBe(1_000_000);
    expect(deliveryFeeMinor('delivery', 'ZAR', 'south_africa', 'express', za)).toBe(0);
    // abroad the speed and the surcharge are charged whatever the order's value
    expect(deliveryFeeMinor('delivery', 'NGN', 'south_africa', 'express', ng)).toBeGreaterThan(1_500_000);
    expect(lowestDeliveryFeeMinor('NGN')).toBe(500_000);
    expect(lowestDeliveryFeeMinor('ZAR')).toBe(12_000);
  });

  it('estimates delivery in working days: an order on Friday 27 Nov 2026 skips the weekend', () => {
    const friday = new Date('2026-11-27T10:00:00Z');
    expect(estimatedDelivery('express', friday)).toBe('Mon 30 Nov – Tue 1 Dec');
    expect(estimatedDelivery('economy', friday)).toBe('Fri 4 Dec – Tue 8 Dec');
  });
});
