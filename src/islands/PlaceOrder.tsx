import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from '@/lib/client/toast';
import CheckoutTotals from '@/components/CheckoutTotals';
import CsrfInput from '@/components/CsrfInput';
import UpdateChannelChoices from '@/components/UpdateChannelChoices';
import { DiscountFields, DiscountForm } from '@/components/DiscountCode';
import GiftFields, { giftFromCheckoutForm, type GiftOffer, type GiftState } from '@/components/GiftFields';
import PickupPointChoices from '@/components/PickupPointChoices';
import type { PickupPointOffer } from '@/lib/domain/pickup-points';
import { api } from '@/lib/client/api';
import { sendAndShow, useChoicesMadeEarly } from '@/lib/client/forms';
import { navigateAfterToast } from '@/lib/client/navigate';
import { holdOffline } from '@/lib/client/offline-forms';
import { $cartId, cartChanged, cartEmptied, cartIdForgotten } from '@/lib/client/stores';
import type { CartDto } from '@/lib/domain/cart';
import { formatMoney, toMajor, toMinor } from '@/lib/domain/money';
import {
  CHECKOUT_PAYMENT_CHOICE_LABELS,
  payOnDeliveryTerms,
  type CheckoutPaymentChoice,
  type PayOnDeliveryRefusal,
  type PayOnDeliveryRules,
  type PayOnDeliveryStanding,
} from '@/lib/domain/payment-methods';
import { boutiqueAt, formatAddress, type AddressDto, type DeliveryOption, type DeliverySpeedId } from '@/lib/domain/shipping';
import type { UpdateChannel } from '@/lib/domain/order-updates';
import { TOASTS } from '@/lib/domain/toasts';
import { LINE_WIDTHS, pictureSources } from '@/lib/client/pictures';
import { Picture } from '@/components/Picture';
import './PlaceOrder.css';

/** What the server made of the return from the provider (?reference=), shown with or without scripts. */
export interface ReturnOutcome {
  placed?: { id: string; trackingNumber: string };
  error?: string;
  /** The payment is pending (a bank transfer on its way): the order appears once the provider confirms it. */
  waiting?: Waiting;
  /** The server ran fulfil(reference) for this return: the island shows the outcome and does not place the order again. */
  answered: boolean;
}

/** A payment waiting for its money: the amount as shown and its reference (to ask whether it arrived). */
export interface Waiting {
  amount: string;
  reference: string;
}

/** How often the waiting view asks whether the transfer arrived. */
const WAITING_POLL_MS = 3000;

/**
 * The view of a transfer on its way, which looks for the order every few seconds and goes to its
 * thank-you page once the transfer is confirmed; "Check again" is a plain GET of the same view
 * (also the way without scripts, with the page's refresh).
 */
function WaitingForTransfer({ waiting }: { waiting: Waiting }) {
  useEffect(() => {
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const { body } = await api<{ data?: { state?: string; orderId?: string } }>(`/payments/state?reference=${encodeURIComponent(waiting.reference)}`);
        if (!stopped && body.data?.state === 'placed' && body.data.orderId) {
          stopped = true;
          window.clearInterval(timer);
          cartEmptied();
          window.location.assign(`/order-details/${encodeURIComponent(body.data.orderId)}?placed=1&notice=order-placed`);
        }
      } catch {
        // offline for a moment: the next tick asks again
      }
    }, WAITING_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [waiting.reference]);
  return (
    <div className="po-placed" role="status" data-testid="transfer-waiting">
      <h2 className="po-placed-title">{TOASTS['transfer-waiting']}</h2>
      <p>
        Amount <strong>{waiting.amount}</strong>
      </p>
      <p>{TOASTS['transfer-waiting-note']}</p>
      <div className="po-placed-links">
        <form method="get" action="/place-order">
          <input type="hidden" name="waiting" value={waiting.reference} />
          <button className="btn" type="submit">
            Check again
          </button>
        </form>
        <a className="btn btn-outline" href="/order-history">
          Orders
        </a>
      </div>
    </div>
  );
}

/** Pay on delivery for this shopper in this market: the rules, the account's standing, and the text of each refusal. */
export interface PayOnDeliveryOffer {
  rules: PayOnDeliveryRules;
  standing: PayOnDeliveryStanding;
  refusals: Record<PayOnDeliveryRefusal, string>;
  /** The choice the page opened with (?payment=on_delivery). */
  initial: CheckoutPaymentChoice;
  /** How the courier, or the pickup point, takes the money (doorPaymentSentence for the market). */
  doorPayment: Record<DeliveryOption, string>;
}

interface Props {
  initialCart: CartDto;
  payOnDelivery?: PayOnDeliveryOffer | null;
  /** The session's CSRF token for the checkout form. */
  csrf?: string | null;
  /** "This is a gift" in this market: wrapping's fee and the phone's example. */
  gift?: GiftOffer | null;
  /** Set on the return from the provider: what the server made of it. */
  outcome?: ReturnOutcome | null;
  /** The shopper's store credit in the market's currency (major units), when there is some. */
  storeCredit?: number | null;
  /** This checkout attempt's key, minted with the page: sent with PAY & PLACE ORDER, so a resend places one order. */
  checkoutKey?: string | null;
  /** "Order updates": the shopper's current choice, and whether the store offers WhatsApp. */
  updates?: { chosen: UpdateChannel; whatsapp: boolean } | null;
  /** "Verify your phone" (the page's slot): shown above PAY & PLACE ORDER while pay on delivery is chosen. */
  verifyPhone?: ReactNode;
  /** "Collect from a PUDO locker": the lockers nearest the delivery address, and the one the page came back with. */
  lockers?: { offer: PickupPointOffer; chosen: string | null } | null;
}

/** A fresh attempt key once the server has answered the last one (a new attempt may ask for other choices). */
function newAttemptKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Paying and placing the order is one action to the shopper: each of its toasts replaces the last. */
const PLACE_ORDER_TOAST = 'place-order';

/** Spec: the payment reference is held in session storage. */
const REFERENCE_KEY = 'ml:paymentReference';

function readReference(): string | null {
  try {
    return sessionStorage.getItem(REFERENCE_KEY);
  } catch {
    return null;
  }
}
function writeReference(ref: string | null): void {
  try {
    if (ref) sessionStorage.setItem(REFERENCE_KEY, ref);
    else sessionStorage.removeItem(REFERENCE_KEY);
  } catch {
    // private mode without storage: the return URL still carries the reference
  }
}

function Address({ address, title, change }: { address: AddressDto; title: string; change?: string }) {
  // A pickup point says when it is open and what to bring (the store's boutique facts).
  const boutique = boutiqueAt(address);
  return (
    <div className="po-address" aria-label={title} role="group">
      <p className="po-address-title">
        {title}
        {change && (
          <a className="po-change" href={change} aria-label={`Change ${title.toLowerCase()}`}>
            Change
          </a>
        )}
      </p>
      <p className="po-address-name">{address.name}</p>
      <p>{formatAddress(address)}</p>
      {boutique && (
        <>
          <p className="po-address-hours">{boutique.hours}</p>
          <p className="po-address-note">{boutique.pickupNote}</p>
        </>
      )}
    </div>
  );
}

/**
 * Checkout: delivery or pickup, the summary, payment at the provider, then the order is placed on return.
 * A real form: without scripts PAY & PLACE ORDER posts (with the Delivery / Pickup choice) to the
 * initiate endpoint, which answers with a redirect to the provider, and the server places the order
 * when the shopper comes back (outcome). Once hydrated, the island makes the spec's calls instead.
 */
export default function PlaceOrder({ initialCart, csrf, outcome, payOnDelivery, storeCredit, checkoutKey, updates, gift, verifyPhone, lockers }: Props) {
  const [cart, setCart] = useState(initialCart);
  // Kept until the server answers: a send lost on the way and tried again is the same attempt.
  const [attemptKey, setAttemptKey] = useState(checkoutKey ?? null);
  // Messages and controls only a page without scripts needs; the island shows toasts instead.
  const [hydrated, setHydrated] = useState(false);
  const [placedNext, setPlacedNext] = useState<string | null>(null);
  useEffect(() => {
    if (!placedNext) return;
    toast.success(TOASTS['order-placed'], { id: PLACE_ORDER_TOAST });
    navigateAfterToast(placedNext);
  }, [placedNext]);
  // The server's answer on the way back (placed or refused) is toasted once the page has
  // re-rendered without the inline message a page without scripts shows in the same words.
  const [refusal, setRefusal] = useState<{ text: string } | null>(null);
  useEffect(() => {
    if (refusal) toast.error(refusal.text, { id: PLACE_ORDER_TOAST });
  }, [refusal]);
  const [option, setOption] = useState<DeliveryOption>(initialCart.deliveryOption);
  const [speed, setSpeed] = useState<DeliverySpeedId>(initialCart.deliverySpeed);
  const [reference, setReference] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [switching, setSwitching] = useState(false);
  const returned = useRef(false);
  // A payment still pending (a bank transfer on its way), as the server said on the return or on place-order.
  const [waiting, setWaiting] = useState(outcome?.waiting ?? null);
  const toggle = useRef<HTMLFieldSetElement>(null);
  const details = useRef<HTMLElement>(null);
  const money = (n: number) => formatMoney(n, cart.currency);
  const [method, setMethod] = useState<CheckoutPaymentChoice>(payOnDelivery?.initial ?? 'online');
  // "Use my store credit": it comes off the total first; when it covers everything, nothing is paid.
  const [useCredit, setUseCredit] = useState(false);
  // "This is a gift" with wrapping adds the market's fee to the total the server will charge.
  const [giftState, setGiftState] = useState<GiftState>({ on: false, wrap: false });
  const wrapFee = gift && giftState.on && giftState.wrap ? gift.wrapFee : 0;
  // A PUDO locker chosen: its fee stands in for the speed's (the server charges the same).
  const [locker, setLocker] = useState(lockers?.chosen ?? null);
  const toLocker = option === 'delivery' && locker !== null ? locker : undefined;
  const figures = toLocker && lockers ? { ...cart, deliveryFee: lockers.offer.fee, total: cart.total - cart.deliveryFee + lockers.offer.fee } : cart;
  const total = figures.total + wrapFee;
  const form = useRef<HTMLFormElement>(null);
  const creditUsed = useCredit && storeCredit ? Math.min(storeCredit, total) : 0;
  const creditCoversAll = creditUsed > 0 && creditUsed >= total;
  // What paying on delivery means for this total (it follows the delivery choice); shown while it is chosen.
  // The phone is verified by "Verify your phone" above the pay button, whose forms come back to this page.
  const terms = payOnDelivery ? payOnDeliveryTerms(toMinor(total), payOnDelivery.rules, payOnDelivery.standing) : null;
  const wholeOnDelivery = method === 'on_delivery' && terms?.allowed === true && terms.depositMinor === 0;

  function forgetReference() {
    writeReference(null);
    setReference(null);
  }

  /**
   * The end of a placement the server already answered (spec): the reference is cleared; success goes
   * to the order's own page (its thank-you), a failure clears the cart id too.
   */
  function settle(error: string | null, placedId?: string) {
    forgetReference();
    if (error === null) {
      cartEmptied();
      // Toasted once the page has re-rendered (as a refusal is): the server's "placed" panel says the same words.
      setPlacedNext(placedId ? `/order-details/${placedId}?placed=1` : '/order-history');
      return;
    }
    cartIdForgotten();
    setRefusal({ text: error });
  }

  async function placeOrder(paymentReference: string | null) {
    if (!paymentReference) {
      toast.error(TOASTS['payment-not-found'], { id: PLACE_ORDER_TOAST });
      return;
    }
    setBusy(true);
    const sent = await sendAndShow<{ status: boolean; message?: string; paymentStatus?: string; data?: { id?: string } }>(
      () => api('/orders/place-order', { method: 'POST', body: { cartId: $cartId.get() ?? cart.id, paymentReference } }),
      {
        failed: 'Error placing order.',
        toastId: PLACE_ORDER_TOAST,
        onSuccess: ({ data }) => {
          forgetReference();
          cartEmptied();
          return { toast: TOASTS['order-placed'], next: data?.id ? `/order-details/${data.id}?placed=1` : '/order-history' };
        },
        onFailure: () => forgetReference(),
        refusal: ({ body }) => {
          // A transfer on its way is not a failure: the cart stays, and the page says what happens next.
          if (body?.paymentStatus === 'pending') {
            setWaiting({ amount: money(cart.total), reference: paymentReference });
            return null;
          }
          cartIdForgotten();
          return body?.message ? `Error placing order. ${body.message}` : 'Error placing order.';
        },
      },
    );
    if (sent !== 'navigating') setBusy(false);
  }

  useEffect(() => {
    setHydrated(true);
    cartChanged(cart);
    const stored = readReference();
    setReference(stored);
    const params = new URLSearchParams(window.location.search);
    const back = params.get('paid') === 'true' || params.has('reference');
    if (back && !returned.current) {
      returned.current = true;
      // Leave a clean URL so a reload does not try again.
      history.replaceState(null, '', '/place-order');
      // One fulfilment per return: the server ran it for this page when the URL carried the reference.
      // A transfer on its way is not a failure: the cart stays, and the page says what happens next.
      if (outcome?.waiting) forgetReference();
      else if (outcome?.answered) settle(outcome.placed ? null : (outcome.error ?? 'Error placing order.'), outcome.placed?.id);
      else void placeOrder(stored ?? params.get('reference'));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useChoicesMadeEarly(details, { deliveryOption: initialCart.deliveryOption, deliverySpeed: initialCart.deliverySpeed }, (name, value) => {
    if (name === 'deliveryOption' && (value === 'delivery' || value === 'pickup')) void choose(value);
    if (name === 'deliverySpeed' && cart.deliverySpeeds.some((s) => s.id === value)) void choose(option, value as DeliverySpeedId);
  });

  /** Delivery or pickup, and a delivery's speed: the server prices it (the spec's delivery-option call). */
  async function choose(next: DeliveryOption, nextSpeed: DeliverySpeedId = speed) {
    if (next === option && nextSpeed === speed) return;
    const previous = { option, speed };
    setOption(next);
    setSpeed(nextSpeed);
    setSwitching(true);
    await sendAndShow<{ status: boolean; data: { deliveryFee: number; totalFee: number; subtotal: number } }>(
      () => api(`/cart/delivery-option/${encodeURIComponent(cart.id)}`, { method: 'PUT', body: { deliveryOption: next, deliverySpeed: nextSpeed } }),
      {
        failed: TOASTS['delivery-update-failed'],
        toastId: 'delivery-option',
        onSuccess: ({ data }) => {
          setCart((c) => ({ ...c, deliveryOption: next, deliverySpeed: nextSpeed, deliveryFee: data.deliveryFee, total: data.totalFee, subtotal: data.subtotal }));
          return { toast: null };
        },
        onFailure: () => {
          setOption(previous.option);
          setSpeed(previous.speed);
        },
        refusal: () => TOASTS['delivery-update-failed'],
      },
    );
    setSwitching(false);
  }

  async function pay(form: HTMLFormElement) {
    setBusy(true);
    // The "Order updates" radios are the page's own (uncontrolled): what is ticked is the choice.
    const chosenUpdates = new FormData(form).get('updates') ?? undefined;
    const sent = await sendAndShow<{ status: string; message?: string; data?: { reference: string; authorization_url: string } }>(
      () =>
        api('/orders/initiate', {
          method: 'POST',
          body: { paymentMethod: method, useStoreCredit: useCredit, updates: chosenUpdates, gift: giftFromCheckoutForm(form), pickupPoint: toLocker },
          headers: attemptKey ? { 'idempotency-key': attemptKey } : {},
        }),
      {
        failed: 'Failed to initialize payment.',
        toastId: PLACE_ORDER_TOAST,
        unreachable: TOASTS['payment-init-error'],
        // Never sent again by itself: the shopper retries, with the same attempt key.
        whenOffline: () => holdOffline({ retry: () => void pay(form), resend: false }),
        succeeded: ({ ok, body }) => ok && body.status === 'success' && Boolean(body.data),
        onSuccess: ({ data }) => {
          writeReference(data!.reference);
          setReference(data!.reference);
          // To the provider at once: there is no toast to read first.
          return { toast: null, next: data!.authorization_url };
        },
        refusal: ({ body }) => {
          setAttemptKey(newAttemptKey());
          return body?.message ? `Failed to initialize payment. ${body.message}` : 'Failed to initialize payment.';
        },
      },
    );
    if (sent !== 'navigating') setBusy(false);
  }

  function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (reference) void placeOrder(reference);
    else void pay(e.currentTarget as HTMLFormElement);
  }

  if (waiting) return <WaitingForTransfer waiting={waiting} />;

  if (outcome?.placed && !hydrated) {
    return (
      <div className="po-placed" role="status">
        <p className="po-placed-title">{TOASTS['order-placed']}</p>
        <p>
          Tracking number <strong>{outcome.placed.trackingNumber}</strong>
        </p>
        <div className="po-placed-links">
          <a className="btn" href={`/order-details/${outcome.placed.id}`}>
            View your order
          </a>
          <a className="btn btn-outline" href="/order-history">
            Orders
          </a>
        </div>
      </div>
    );
  }

  const empty = cart.items.length === 0;
  return (
    <>
      <form className="po" method="post" action="/api/v1/orders/initiate" onSubmit={onSubmit} ref={form}>
        <CsrfInput token={csrf} />
        {attemptKey && <input type="hidden" name="idempotencyKey" value={attemptKey} />}
        <section className="po-details" aria-labelledby="po-details-title" ref={details}>
          {outcome?.error && !hydrated && (
            <p className="form-message form-message-error" role="alert">
              {outcome.error}
            </p>
          )}
          <h2 id="po-details-title">Order details</h2>
          <fieldset className="po-toggle" ref={toggle} disabled={switching || busy}>
            <legend className="visually-hidden">Delivery or pickup</legend>
            <label className={option === 'delivery' ? 'is-on' : ''}>
              <input
                type="radio"
                name="deliveryOption"
                value="delivery"
                checked={option === 'delivery'}
                disabled={!cart.deliveryAddress}
                onChange={() => choose('delivery')}
              />
              Delivery
            </label>
            <label className={option === 'pickup' ? 'is-on' : ''}>
              <input type="radio" name="deliveryOption" value="pickup" checked={option === 'pickup'} onChange={() => choose('pickup')} />
              Pickup
            </label>
          </fieldset>
          {!hydrated && (
            <button className="btn btn-outline po-update" type="submit" formAction={`/api/v1/cart/delivery-option/${encodeURIComponent(cart.id)}`}>
              Update total
            </button>
          )}
          {option === 'delivery' && cart.deliveryAddress ? (
            <Address address={cart.deliveryAddress} title="Delivery address" change="/address-history?back=%2Fplace-order" />
          ) : (
            <Address address={cart.pickupAddress} title="Pickup address" />
          )}
          {cart.deliveryAddress && (
            // Shown while Delivery is chosen (CSS :has, so also before scripts run); the fee follows the speed.
            <fieldset className="po-speeds" disabled={switching || busy}>
              <legend>Delivery speed</legend>
              {cart.deliverySpeeds.map((s) => (
                <label key={s.id}>
                  <input type="radio" name="deliverySpeed" value={s.id} checked={speed === s.id} onChange={() => choose(option, s.id)} />
                  <span className="po-speed-name">{s.name}</span>
                  <span className="po-speed-fee">{money(s.fee)}</span>
                  <span className="po-speed-when">
                    {s.days} · arrives {s.estimate}
                  </span>
                </label>
              ))}
              <a className="po-speeds-more" href="/delivery-options">
                About delivery options
              </a>
            </fieldset>
          )}
          {cart.deliveryAddress && lockers && (
            <PickupPointChoices offer={lockers.offer} chosen={locker} onChoose={setLocker} disabled={switching || busy} />
          )}
          {!cart.deliveryAddress && (
            <p className="po-hint">
              To have your order delivered, <a href="/add-address?next=%2Fplace-order">add a shipping address</a> and make it your default.
            </p>
          )}
          <ul className="po-items" aria-label="Items">
            {cart.items.map((i) => (
              <li key={`${i.productId}|${i.color}|${i.size}`}>
                <Picture pic={pictureSources(i.productImage, LINE_WIDTHS, 320)} sizes="56px" alt="" width="56" height="70" loading="lazy" decoding="async" />
                <span className="po-item-text">
                  <span className="po-item-name">{i.productName}</span>
                  <span className="po-item-meta">
                    {[i.color && `Colour: ${i.color}`, i.size && `Size: ${i.size}`, `Quantity: ${i.quantity}`].filter(Boolean).join(' · ')}
                  </span>
                </span>
                <span>{money(i.price)}</span>
              </li>
            ))}
          </ul>
          {gift && !empty && <GiftFields offer={gift} disabled={busy} onChange={setGiftState} />}
          {storeCredit ? (
            <fieldset className="po-credit" disabled={busy}>
              <legend>Store credit: {money(storeCredit)}</legend>
              <label>
                <input type="checkbox" name="useStoreCredit" value="true" checked={useCredit} onChange={(e) => setUseCredit(e.currentTarget.checked)} />
                Use my store credit
              </label>
              {/* Shown while ticked (CSS :has, so also before scripts run; the server works out the same). */}
              <p className="po-credit-note" aria-live="polite">
                {money(Math.min(storeCredit, total))} comes off your total
                {Math.min(storeCredit, total) >= total ? ': nothing to pay.' : `; ${money(total - Math.min(storeCredit, total))} left to pay.`}
              </p>
            </fieldset>
          ) : null}
          {payOnDelivery && terms && !creditCoversAll && (
            <fieldset className="po-pay" disabled={busy}>
              <legend>Payment method</legend>
              {(['online', 'on_delivery'] as const).map((choice) => (
                <label key={choice}>
                  <input
                    type="radio"
                    name="paymentMethod"
                    value={choice}
                    checked={method === choice}
                    onChange={() => setMethod(choice)}
                    aria-describedby={choice === 'on_delivery' && option === 'pickup' ? 'po-pay-pickup' : undefined}
                  />
                  {CHECKOUT_PAYMENT_CHOICE_LABELS[choice]}
                </label>
              ))}
              {/* Outside the label: the choice's name stays "Pay on delivery". */}
              {option === 'pickup' && (
                <p className="po-pay-hint" id="po-pay-pickup">
                  Pay at the pickup point
                </p>
              )}
              {/* Shown while "Pay on delivery" is chosen (CSS :has, so also before scripts run). */}
              <div className="po-pay-terms" aria-live="polite">
                {!terms.allowed ? (
                  <p className="po-pay-refused" data-testid="pod-refusal">
                    {payOnDelivery.refusals[terms.reason]}
                  </p>
                ) : terms.depositMinor > 0 ? (
                  <p data-testid="pod-terms">
                    Pay a deposit of <strong>{money(toMajor(terms.depositMinor))}</strong> online now, and{' '}
                    <strong>{money(toMajor(terms.dueMinor))}</strong> {option === 'pickup' ? 'at the pickup point' : 'on delivery'}.
                  </p>
                ) : (
                  <p data-testid="pod-terms">
                    Nothing to pay now: pay <strong>{money(toMajor(terms.dueMinor))}</strong> {option === 'pickup' ? 'at the pickup point' : 'on delivery'}.
                  </p>
                )}
                {(terms.allowed || terms.reason === 'phone-not-verified') && payOnDelivery.doorPayment[option] && (
                  <p data-testid="pod-door">{payOnDelivery.doorPayment[option]}</p>
                )}
              </div>
            </fieldset>
          )}
          {updates && !reference && <UpdateChannelChoices chosen={updates.chosen} whatsapp={updates.whatsapp} idPrefix="po-updates" disabled={busy} />}
        </section>
        <CheckoutTotals
          label="Order summary"
          totals={{ ...figures, total }}
          giftWrap={wrapFee}
          pickup={option === 'pickup'}
          totalTestId="order-total"
          discountControls={!reference && !empty && <DiscountFields form="po-discount" back="/place-order" cart={cart} idPrefix="po" />}
        >
          {verifyPhone}
          <button className="btn buy-cta" type="submit" disabled={busy || switching || (empty && !reference)}>
            {reference || wholeOnDelivery || creditCoversAll ? 'PLACE ORDER' : 'PAY & PLACE ORDER'}
          </button>
          {empty && !reference && (
            <p className="po-hint">
              Your cart is empty. <a href="/collection">Continue shopping</a>
            </p>
          )}
        </CheckoutTotals>
      </form>
      {/* Outside the checkout form (forms do not nest): the discount fields in the summary point to it. */}
      <DiscountForm
        id="po-discount"
        back="/place-order"
        csrf={csrf}
        onCart={(next) => {
          setCart(next);
          if (next.notice) toast.success(next.notice, { id: 'cart-notice' });
        }}
      />
    </>
  );
}
