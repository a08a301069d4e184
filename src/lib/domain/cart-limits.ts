/**
 * The cart's limits as the server holds a cart to them, with their words from messages.ts. Apart
 * from cart.ts, which islands import: a phone's bundle carries no server texts.
 */
import { MAX_CART_LINES, MAX_LINE_QUANTITY, maxQuantityFor } from './cart';
import { Invalid } from './errors';
import { fill, message, named } from './messages';

export const CART_FULL_MESSAGE = fill('cart-full', MAX_CART_LINES);

/** Refuses a new line when the cart already holds `lineCount` lines. */
export function assertRoomForNewLine(lineCount: number): void {
  if (lineCount >= MAX_CART_LINES) throw new Invalid(CART_FULL_MESSAGE, { maxLines: MAX_CART_LINES });
}

/**
 * Checks a wanted line quantity against the variant's stock and the per-line limit.
 * Throws Invalid with a message a shopper can act on.
 */
export function assertQuantityAllowed(quantity: number, stock: number, itemName: string): void {
  if (!Number.isInteger(quantity) || quantity < 1) throw new Invalid(message('quantity-min'));
  if (stock <= 0) throw new Invalid(named('item-out-of-stock', itemName));
  if (quantity <= maxQuantityFor(stock)) return;
  // Name the limit the shopper actually meets: the stock when it is below the per-line limit.
  if (stock < MAX_LINE_QUANTITY) throw new Invalid(named('item-few-left', itemName, stock), { available: stock });
  throw new Invalid(fill('quantity-max', MAX_LINE_QUANTITY), { available: MAX_LINE_QUANTITY });
}
