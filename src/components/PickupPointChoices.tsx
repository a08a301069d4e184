import { distanceText, PICKUP_POINT_CHOICE, type PickupPointOffer } from '@/lib/domain/pickup-points';

/**
 * "Collect from a PUDO locker": the lockers nearest the delivery address as radios of the checkout
 * form (`pickupPoint`; empty: to the door), so the choice posts with PAY & PLACE ORDER and with
 * "Update total" also without scripts. Shown while Delivery is ticked (CSS :has).
 */
export default function PickupPointChoices({
  offer,
  chosen,
  onChoose,
  disabled,
  money,
}: {
  offer: PickupPointOffer;
  chosen: string | null;
  onChoose: (id: string | null) => void;
  disabled: boolean;
  money: (n: number) => string;
}) {
  return (
    <fieldset className="po-speeds po-lockers" disabled={disabled}>
      <legend>{PICKUP_POINT_CHOICE}</legend>
      <p className="po-speed-when">Your parcel waits in the locker; collect it with the code sent to your phone.</p>
      <label>
        <input type="radio" name="pickupPoint" value="" checked={chosen === null} onChange={() => onChoose(null)} />
        <span className="po-speed-name">No, to my address</span>
      </label>
      {offer.points.map((p) => (
        <label key={p.id}>
          <input type="radio" name="pickupPoint" value={p.id} checked={chosen === p.id} onChange={() => onChoose(p.id)} />
          <span className="po-speed-name">{p.name}</span>
          <span className="po-speed-fee">{money(offer.fee)}</span>
          <span className="po-speed-when">
            {p.address}, {p.city}
            {p.distanceKm !== null && ` · ${distanceText(p.distanceKm)}`}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
