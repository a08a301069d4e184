import type { LockerOffer } from '@/lib/domain/lockers';

/** The search's own form (GET /place-order?lockersNear=), outside the checkout form: its field and button point to it. */
export const LOCKER_SEARCH_FORM = 'po-lockers-near';

/**
 * "Collect from a PUDO locker": the lockers nearest the delivery address as radios of the checkout
 * form (`locker`; empty: to the door), so the choice posts with PAY & PLACE ORDER and with
 * "Update total" also without scripts. Shown while Delivery is ticked (CSS :has). Its words come
 * with the offer from the server.
 */
export default function LockerChoices({ offer, chosen, onChoose, disabled }: { offer: LockerOffer; chosen: string | null; onChoose: (id: string | null) => void; disabled: boolean }) {
  return (
    // The radios are the form's own (uncontrolled): whichever is ticked is the choice.
    <fieldset className="po-speeds" disabled={disabled} onChange={(e) => onChoose((e.target as EventTarget as HTMLInputElement).value || null)}>
      <legend>{offer.title}</legend>
      <p className="po-speed-when">{offer.note}</p>
      <div className="po-locker-search">
        <label htmlFor="po-lockers-near">Find lockers near</label>
        <input id="po-lockers-near" name="lockersNear" form={LOCKER_SEARCH_FORM} defaultValue={offer.search ?? ''} placeholder="Suburb, town or postcode" autoComplete="off" maxLength={60} />
        <button className="btn btn-outline" type="submit" form={LOCKER_SEARCH_FORM}>
          Find
        </button>
      </div>
      {offer.empty && (
        <p className="po-speed-when" role="status">
          {offer.empty}
        </p>
      )}
      {[{ id: '', name: offer.door, where: '' }, ...offer.points].map((p) => (
        <label key={p.id}>
          <input type="radio" name="locker" value={p.id} defaultChecked={(chosen ?? '') === p.id} />
          <span className="po-speed-name">{p.name}</span>
          {p.id && <span className="po-speed-fee">{offer.feeText}</span>}
          {p.id && <span className="po-speed-when">{p.where}</span>}
        </label>
      ))}
    </fieldset>
  );
}
