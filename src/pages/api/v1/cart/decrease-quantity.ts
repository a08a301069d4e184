import { changeQuantityEndpoint } from '@/lib/server/cart/quantity-endpoint';

/** Lowers a line's quantity (body.quantity is the new quantity; without it, one less), never below 1. */
export const PATCH = changeQuantityEndpoint('decrease');
/** HTML forms can only POST: the cart's minus and plus buttons without scripts. */
export const POST = PATCH;
