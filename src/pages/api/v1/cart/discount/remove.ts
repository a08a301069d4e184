import { DELETE } from './index';

/** HTML forms can only POST: the Remove button of the cart's discount code without scripts. */
export const POST = DELETE;
