import { useState } from 'react';
import Field from './Field';
import { GIFT_MESSAGE_MAX, GIFT_NAME_MAX } from '@/lib/domain/gift-limits';

/** What the checkout offers for a gift in the shopper's market. */
export interface GiftOffer {
  /** Gift wrapping's fee, minor units (staff set it per market). */
  wrapFeeMinor: number;
  /** The fee as the page shows it ("₦5,000.00"). */
  wrapFeeText: string;
  /** A number in the market's own form, as the recipient's phone field's example. */
  phoneExample: string;
}

export interface GiftState {
  on: boolean;
  wrap: boolean;
}

/**
 * "This is a gift": a checkbox that opens the recipient's name and phone, the message, wrapping and
 * "Hide prices". The fields are the checkout form's own (giftOn, giftName, giftPhone, giftMessage,
 * giftWrap, giftHidePrices); they show while the box is ticked through CSS :has, so also before
 * scripts run, and the server checks them either way.
 */
export default function GiftFields({ offer, disabled, onChange }: { offer: GiftOffer; disabled: boolean; onChange: (state: GiftState) => void }) {
  const [on, setOn] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [text, setText] = useState('');
  const set = (next: GiftState) => {
    setOn(next.on);
    setWrap(next.wrap);
    onChange(next);
  };
  return (
    <fieldset className="po-gift" disabled={disabled}>
      <legend className="visually-hidden">Gift</legend>
      <label className="po-gift-on">
        <input type="checkbox" name="giftOn" value="true" checked={on} onChange={(e) => set({ on: e.currentTarget.checked, wrap })} />
        This is a gift
      </label>
      <div className="po-gift-fields">
        <p className="po-gift-lead">We will deliver to your address above and call the recipient, not you. You still receive every email about the order.</p>
        <Field id="gift-name" label="Recipient's name" name="giftName" autoComplete="off" maxLength={GIFT_NAME_MAX} required={on} />
        <Field
          id="gift-phone"
          label="Recipient's phone"
          name="giftPhone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          required={on}
          hint={`The courier calls this number, e.g. ${offer.phoneExample}`}
        />
        <div className="field">
          <label htmlFor="gift-message">Gift message (optional)</label>
          <textarea
            id="gift-message"
            name="giftMessage"
            rows={3}
            maxLength={GIFT_MESSAGE_MAX}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            aria-describedby="gift-message-count"
          />
          <span id="gift-message-count" className="field-hint" aria-live="polite">
            {text.length > 0 ? `${text.length} of ${GIFT_MESSAGE_MAX} characters` : `Up to ${GIFT_MESSAGE_MAX} characters, printed on a card in the parcel`}
          </span>
        </div>
        <label className="po-gift-check">
          <input type="checkbox" name="giftWrap" value="true" checked={wrap} onChange={(e) => set({ on, wrap: e.currentTarget.checked })} />
          <span>
            Gift wrapping <span className="po-gift-fee">{offer.wrapFeeMinor > 0 ? `+${offer.wrapFeeText}` : 'Complimentary'}</span>
          </span>
        </label>
        <label className="po-gift-check">
          <input type="checkbox" name="giftHidePrices" value="true" />
          <span>Hide prices (the packing slip shows none)</span>
        </label>
      </div>
    </fieldset>
  );
}

/** The `gift` object the API's initiate takes, read from the checkout form's fields; undefined when "This is a gift" is not ticked. */
export function giftFromCheckoutForm(form: HTMLFormElement): Record<string, unknown> | undefined {
  const data = new FormData(form);
  if (data.get('giftOn') !== 'true') return undefined;
  return {
    recipientName: String(data.get('giftName') ?? ''),
    recipientPhone: String(data.get('giftPhone') ?? ''),
    message: String(data.get('giftMessage') ?? ''),
    wrap: data.get('giftWrap') === 'true',
    hidePrices: data.get('giftHidePrices') === 'true',
  };
}
