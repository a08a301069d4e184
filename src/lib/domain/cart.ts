/**
 * Cart rules, pure: line pricing, quantity limits, the request shapes of the cart API
 * and the cart as the API returns it (money in major units).
 */
import type { MarketCode } from './markets';
import type { CurrencyCode } from './money';
import type { AddressDto, ApiDeliveryOption, DeliverySpeedId } from './shipping';
import type { CartQuote } from './checkout-totals';

/** At most this many of one variant per line, whatever the stock. */
export const MAX_LINE_QUANTITY = 10;

/** At most this many different lines (variants) in one cart, so one checkout stays a sane size. */
export const MAX_CART_LINES = 50;

export function maxQuantityFor(stock: number): number {
  return Math.max(0, Math.min(stock, MAX_LINE_QUANTITY));
}

export function lineTotalMinor(unitPriceMinor: number, quantity: number): number {
  return unitPriceMinor * quantity;
}

/** "Name (Black, M)" for messages. */
export function variantLabel(productName: string, color: string | null, size: string | null): string {
  const parts = [color, size].filter(Boolean);
  return parts.length ? `${productName} (${parts.join(', ')})` : productName;
}

/** What every cart line names: the product, its variant's colour and size, and how many. */
export interface CartLineBase {
  productId: number;
  productName: string;
  productImage: string;
  color: string | null;
  size: string | null;
  quantity: number;
}

export interface CartItemDto extends CartLineBase {
  /** The line total (unit price x quantity), major units. */
  price: number;
  unitPrice: number;
  /** Units in stock for this variant (the most a shopper may choose is min(stock, 10)). */
  stock: number;
}

/** A delivery speed as checkout offers it: its fee to the cart's address (major units) and its estimated dates. */
export interface DeliverySpeedChoice {
  id: DeliverySpeedId;
  name: string;
  days: string;
  fee: number;
  estimate: string;
}

export interface CartDto {
  id: string;
  items: CartItemDto[];
  deliveryAddress: AddressDto | null;
  pickupAddress: AddressDto;
  /** As the API names it: `pickup` for collecting at the boutique. */
  deliveryOption: ApiDeliveryOption;
  /** The delivery's speed (kept while pickup is chosen), and the speeds on offer with their fees and dates. */
  deliverySpeed: DeliverySpeedId;
  deliverySpeeds: DeliverySpeedChoice[];
  deliveryFee: number;
  subtotal: number;
  /** Money off the subtotal from the applied discount code (0 without one). */
  discount: number;
  /** The applied code (upper-case), or null. */
  discountCode: string | null;
  /** subtotal - discount + deliveryFee. */
  total: number;
  /** The same figures in minor units, as the server priced them: the checkout's totals start from these. */
  quote: CartQuote;
  currency: CurrencyCode;
  /** The market the cart is priced in. */
  market: MarketCode;
  /** Set once, when the cart has just been re-priced for another market. */
  notice?: string;
}

/** Same line? Colour and size compare as given (null for none). */
export function sameLine(a: { productId: number; color: string | null; size: string | null }, b: { productId: number; color: string | null; size: string | null }): boolean {
  return a.productId === b.productId && (a.color ?? null) === (b.color ?? null) && (a.size ?? null) === (b.size ?? null);
}

/**
 * Sums lines (major units) the way the server does, for optimistic updates on the client. The
 * discount shown is kept as it is (at most the subtotal) until the server's answer re-prices it.
 */
export function cartTotals(items: readonly { unitPrice: number; quantity: number }[], deliveryFee: number, discount = 0): { subtotal: number; total: number } {
  const subtotalMinor = items.reduce((s, i) => s + Math.round(i.unitPrice * 100) * i.quantity, 0);
  const discountMinor = Math.min(subtotalMinor, Math.round(discount * 100));
  return { subtotal: subtotalMinor / 100, total: (subtotalMinor - discountMinor + Math.round(deliveryFee * 100)) / 100 };
}
