import { useStore } from '@nanostores/react';
import { formatMoney, toMajor } from '@/lib/domain/money';
import { CHECKOUT_PAYMENT_CHOICE_LABELS } from '@/lib/domain/payment-methods';
import { checkoutFigures, type CheckoutOffers } from './figures';
import type { Checkout } from './store';

/**
 * How the shopper pays: "Use my store credit", then Pay online or Pay on delivery with what that
 * means for this total. Each note shows while its choice is ticked (CSS :has, so also before
 * scripts run); the server works out the same.
 */
export default function PaymentChoice({ checkout, offers }: { checkout: Checkout; offers: CheckoutOffers }) {
  const state = useStore(checkout.$checkout);
  const { cart, option, method, useCredit, busy } = state;
  const { totals, creditCoversAll, terms } = checkoutFigures(state, offers);
  const money = (minor: number) => formatMoney(toMajor(minor), cart.currency);
  const { payOnDelivery, storeCreditMinor } = offers;
  const atPickup = option === 'pickup';
  return (
    <>
      {storeCreditMinor > 0 ? (
        <fieldset className="po-credit" disabled={busy}>
          <legend>Store credit: {money(storeCreditMinor)}</legend>
          <label>
            <input type="checkbox" name="useStoreCredit" value="true" checked={useCredit} onChange={(e) => checkout.creditTicked(e.currentTarget.checked)} />
            Use my store credit
          </label>
          <p className="po-credit-note" aria-live="polite">
            {money(totals.creditMinor)} comes off your total
            {totals.leftMinor === 0 ? ': nothing to pay.' : `; ${money(totals.leftMinor)} left to pay.`}
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
                onChange={() => checkout.paymentChosen(choice)}
                aria-describedby={choice === 'on_delivery' && atPickup ? 'po-pay-pickup' : undefined}
              />
              {CHECKOUT_PAYMENT_CHOICE_LABELS[choice]}
            </label>
          ))}
          {/* Outside the label: the choice's name stays "Pay on delivery". */}
          {atPickup && (
            <p className="po-pay-hint" id="po-pay-pickup">
              Pay at the pickup point
            </p>
          )}
          <div className="po-pay-terms" aria-live="polite">
            {!terms.allowed ? (
              <p className="po-pay-refused" data-testid="pod-refusal">
                {payOnDelivery.refusals[terms.reason]}
              </p>
            ) : terms.depositMinor > 0 ? (
              <p data-testid="pod-terms">
                Pay a deposit of <strong>{money(terms.depositMinor)}</strong> online now, and <strong>{money(terms.dueMinor)}</strong>{' '}
                {atPickup ? 'at the pickup point' : 'on delivery'}.
              </p>
            ) : (
              <p data-testid="pod-terms">
                Nothing to pay now: pay <strong>{money(terms.dueMinor)}</strong> {atPickup ? 'at the pickup point' : 'on delivery'}.
              </p>
            )}
            {(terms.allowed || terms.reason === 'phone-not-verified') && payOnDelivery.doorPayment[option] && (
              <p data-testid="pod-door">{payOnDelivery.doorPayment[option]}</p>
            )}
          </div>
        </fieldset>
      )}
    </>
  );
}
