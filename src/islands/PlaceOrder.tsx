import { useStore } from '@nanostores/react';
import { useRef, useState, type ReactNode } from 'react';
import { toast } from '@/lib/client/toast';
import CsrfInput from '@/components/CsrfInput';
import UpdateChannelChoices from '@/components/UpdateChannelChoices';
import { DiscountForm } from '@/components/DiscountCode';
import GiftFields, { type GiftOffer } from '@/components/GiftFields';
import { LOCKER_SEARCH_FORM } from '@/components/LockerChoices';
import { useChoicesMadeEarly } from '@/lib/client/forms';
import type { CartDto } from '@/lib/domain/cart';
import type { DeliverySpeedId } from '@/lib/domain/shipping';
import type { UpdateChannel } from '@/lib/domain/order-updates';
import { chooseDelivery } from './checkout/choose-delivery';
import DeliveryChoice from './checkout/DeliveryChoice';
import type { CheckoutOffers } from './checkout/figures';
import InvoiceCompany, { type CompanyOffer } from './checkout/InvoiceCompany';
import Items from './checkout/Items';
import { Placed, WaitingForTransfer } from './checkout/Outcomes';
import PaymentChoice from './checkout/PaymentChoice';
import { createCheckout } from './checkout/store';
import Summary from './checkout/Summary';
import type { LockersAtCheckout, PayOnDeliveryOffer, ReturnOutcome } from './checkout/types';
import { useSubmit } from './checkout/useSubmit';
import './PlaceOrder.css';

export type { PayOnDeliveryOffer, ReturnOutcome, Waiting } from './checkout/types';

interface Props {
  initialCart: CartDto;
  payOnDelivery?: PayOnDeliveryOffer | null;
  /** The session's CSRF token for the checkout form. */
  csrf?: string | null;
  /** "This is a gift" in this market: wrapping's fee and the phone's example. */
  gift?: GiftOffer | null;
  /** Set on the return from the provider: what the server made of it. */
  outcome?: ReturnOutcome | null;
  /** The shopper's store credit in the market's currency (minor units), when there is some. */
  storeCreditMinor?: number | null;
  /** This checkout attempt's key, minted with the page: sent with PAY & PLACE ORDER, so a resend places one order. */
  checkoutKey?: string | null;
  /** "Order updates": the shopper's current choice, and whether the store offers WhatsApp. */
  updates?: { chosen: UpdateChannel; whatsapp: boolean } | null;
  /** "Verify your phone" (the page's slot): shown above PAY & PLACE ORDER while pay on delivery is chosen. */
  verifyPhone?: ReactNode;
  /** "Collect from a PUDO locker": the lockers nearest the delivery address, and the one the page came back with. */
  lockers?: LockersAtCheckout | null;
  /** "incl. VAT" beside the total where the market is registered. */
  vatNote?: string | null;
  /** "Buying for a company?", where the market is registered: what its tax number is called and looks like. */
  company?: CompanyOffer | null;
}

/**
 * Checkout: delivery or pickup, the summary, payment at the provider, then the order is placed on return.
 * A real form: without scripts PAY & PLACE ORDER posts (with the Delivery / Pickup choice) to the
 * initiate endpoint, which answers with a redirect to the provider, and the server places the order
 * when the shopper comes back (outcome). Once hydrated, the island makes the same calls through the JSON API instead.
 */
export default function PlaceOrder({ initialCart, csrf, outcome, payOnDelivery, storeCreditMinor, checkoutKey, updates, gift, verifyPhone, lockers, vatNote = null, company = null }: Props) {
  const [checkout] = useState(() =>
    createCheckout({ cart: initialCart, method: payOnDelivery?.initial ?? 'online', locker: lockers?.chosen ?? null, attemptKey: checkoutKey ?? null, waiting: outcome?.waiting ?? null }),
  );
  const { cart, attemptKey, hydrated, waiting, reference, busy } = useStore(checkout.$checkout);
  const offers: CheckoutOffers = { lockers: lockers ?? null, gift: gift ?? null, storeCreditMinor: storeCreditMinor ?? 0, payOnDelivery: payOnDelivery ?? null, vatNote };
  const onSubmit = useSubmit(checkout, outcome);
  const details = useRef<HTMLElement>(null);

  // A choice made before the script ran is priced as soon as it does.
  useChoicesMadeEarly(details, { deliveryOption: initialCart.deliveryOption, deliverySpeed: initialCart.deliverySpeed }, (name, value) => {
    const { option } = checkout.$checkout.get();
    if (name === 'deliveryOption' && (value === 'delivery' || value === 'pickup')) void chooseDelivery(checkout, value);
    if (name === 'deliverySpeed' && cart.deliverySpeeds.some((s) => s.id === value)) void chooseDelivery(checkout, option, value as DeliverySpeedId);
  });

  if (waiting) return <WaitingForTransfer waiting={waiting} />;
  if (outcome?.placed && !hydrated) return <Placed placed={outcome.placed} />;

  const empty = cart.items.length === 0;
  return (
    <>
      <form className="po" method="post" action="/api/v1/orders/initiate" onSubmit={onSubmit}>
        <CsrfInput token={csrf} />
        {attemptKey && <input type="hidden" name="idempotencyKey" value={attemptKey} />}
        <section className="po-details" aria-labelledby="po-details-title" ref={details}>
          {outcome?.error && !hydrated && (
            <p className="form-message form-message-error" role="alert">
              {outcome.error}
            </p>
          )}
          <h2 id="po-details-title">Order details</h2>
          <DeliveryChoice checkout={checkout} lockers={offers.lockers} />
          <Items cart={cart} />
          {gift && !empty && <GiftFields offer={gift} disabled={busy} onChange={checkout.giftChanged} />}
          {company && !empty && <InvoiceCompany offer={company} disabled={busy} />}
          <PaymentChoice checkout={checkout} offers={offers} />
          {updates && !reference && <UpdateChannelChoices chosen={updates.chosen} whatsapp={updates.whatsapp} idPrefix="po-updates" disabled={busy} />}
        </section>
        <Summary checkout={checkout} offers={offers} verifyPhone={verifyPhone} />
      </form>
      {/* Outside the checkout form (forms do not nest): the locker search's field and button point to it. */}
      {lockers && <form id={LOCKER_SEARCH_FORM} method="get" action="/place-order#po-lockers-near" hidden />}
      {/* Outside the checkout form (forms do not nest): the discount fields in the summary point to it. */}
      <DiscountForm
        id="po-discount"
        back="/place-order"
        csrf={csrf}
        onCart={(next) => {
          checkout.cartReplaced(next);
          if (next.notice) toast.success(next.notice, { id: 'cart-notice' });
        }}
      />
    </>
  );
}
