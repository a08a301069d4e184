import { useStore } from '@nanostores/react';
import LockerChoices from '@/components/LockerChoices';
import { formatMoney } from '@/lib/domain/money';
import Address from './Address';
import { chooseDelivery } from './choose-delivery';
import type { Checkout } from './store';
import type { LockersAtCheckout } from './types';

/**
 * Delivery or pickup, the address it goes to, a delivery's speed and the PUDO lockers. The radios
 * are the checkout form's own: without scripts "Update total" posts them to the delivery-option
 * endpoint, which comes back to this page priced.
 */
export default function DeliveryChoice({ checkout, lockers }: { checkout: Checkout; lockers: LockersAtCheckout | null }) {
  const { cart, option, speed, locker, switching, busy, hydrated } = useStore(checkout.$checkout);
  const money = (n: number) => formatMoney(n, cart.currency);
  return (
    <>
      <fieldset className="po-toggle" disabled={switching || busy}>
        <legend className="visually-hidden">Delivery or pickup</legend>
        <label className={option === 'delivery' ? 'is-on' : ''}>
          <input
            type="radio"
            name="deliveryOption"
            value="delivery"
            checked={option === 'delivery'}
            disabled={!cart.deliveryAddress}
            onChange={() => void chooseDelivery(checkout, 'delivery')}
          />
          Delivery
        </label>
        <label className={option === 'pickup' ? 'is-on' : ''}>
          <input type="radio" name="deliveryOption" value="pickup" checked={option === 'pickup'} onChange={() => void chooseDelivery(checkout, 'pickup')} />
          Pickup
        </label>
      </fieldset>
      {!hydrated && (
        <button className="btn btn-outline po-update" type="submit" formAction={`/api/v1/cart/delivery-option/${encodeURIComponent(cart.id)}`}>
          Update total
        </button>
      )}
      {option === 'delivery' && cart.deliveryAddress ? (
        <Address address={cart.deliveryAddress} title="Delivery address" change="/place-order/address" />
      ) : (
        <Address address={cart.pickupAddress} title="Pickup address" />
      )}
      {cart.deliveryAddress && (
        // Shown while Delivery is chosen (CSS :has, so also before scripts run); the fee follows the speed.
        <fieldset className="po-speeds" disabled={switching || busy}>
          <legend>Delivery speed</legend>
          {cart.deliverySpeeds.map((s) => (
            <label key={s.id}>
              <input type="radio" name="deliverySpeed" value={s.id} checked={speed === s.id} onChange={() => void chooseDelivery(checkout, option, s.id)} />
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
      {cart.deliveryAddress && lockers && <LockerChoices offer={lockers.offer} chosen={locker} onChoose={checkout.lockerChosen} disabled={switching || busy} />}
      {!cart.deliveryAddress && (
        <p className="po-hint">
          To have your order delivered, <a href="/add-address?next=%2Fplace-order">add a shipping address</a> and make it your default.
        </p>
      )}
    </>
  );
}
