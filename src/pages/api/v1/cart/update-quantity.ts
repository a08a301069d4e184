import { changeQuantityEndpoint } from '@/lib/server/cart/quantity-endpoint';

/** Sets a line's quantity (body.quantity is the new quantity; without it, one more). */
export const PATCH = changeQuantityEndpoint('increase');
/** HTML forms can only POST: the cart's minus and plus buttons without scripts. */
export const POST = PATCH;
