import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import CheckoutTotals from '@/components/CheckoutTotals';
import { DiscountFields } from '@/components/DiscountCode';
import { toMajor } from '@/lib/domain/money';
import { CHECKOUT_PAY_BUTTON } from '@/lib/domain/payment-methods';
import { checkoutFigures, type CheckoutOffers } from './figures';
import type { Checkout } from './store';
import VerifyPhoneStep from './VerifyPhoneStep';

/**
 * The order summary: the totals as the server charges them, the discount code, "Verify your
 * phone" while it is needed, and the submit button, whose words follow what is paid now.
 */
export default function Summary({ checkout, offers, verifyPhone }: { checkout: Checkout; offers: CheckoutOffers; verifyPhone?: ReactNode }) {
  const state = useStore(checkout.$checkout);
  const { cart, option, reference, busy, switching } = state;
  const { totals, wholeOnDelivery, creditCoversAll } = checkoutFigures(state, offers);
  const empty = cart.items.length === 0;
  const shown = {
    subtotal: toMajor(totals.subtotalMinor),
    discount: toMajor(totals.discountMinor),
    discountCode: cart.discountCode,
    deliveryFee: toMajor(totals.deliveryFeeMinor),
    total: toMajor(totals.totalMinor),
    currency: cart.currency,
  };
  return (
    <CheckoutTotals
      label="Order summary"
      totals={shown}
      giftWrap={toMajor(totals.giftWrapMinor)}
      vatNote={offers.vatNote}
      pickup={option === 'pickup'}
      totalTestId="order-total"
      discountControls={!reference && !empty && <DiscountFields form="po-discount" back="/place-order" cart={cart} idPrefix="po" />}
    >
      <VerifyPhoneStep>{verifyPhone}</VerifyPhoneStep>
      <button id={CHECKOUT_PAY_BUTTON} className="btn buy-cta" type="submit" disabled={busy || switching || (empty && !reference)}>
        {reference || wholeOnDelivery || creditCoversAll ? 'PLACE ORDER' : 'PAY & PLACE ORDER'}
      </button>
      {empty && !reference && (
        <p className="po-hint">
          Your cart is empty. <a href="/collection">Continue shopping</a>
        </p>
      )}
    </CheckoutTotals>
  );
}
