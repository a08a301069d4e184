/** HTML forms can only POST: the Remove button of the cart's discount code without scripts. */
export { DELETE as POST } from './index';
