import { UPDATE_CHANNEL_CHOICES, UPDATE_CHANNELS, type UpdateChannel } from '@/lib/domain/order-updates';
import './UpdateChannelChoices.css';

interface Props {
  /** The shopper's current choice (ticked at first). */
  chosen: UpdateChannel;
  /** Whether the store offers WhatsApp (WHATSAPP is not off). */
  whatsapp: boolean;
  /** Prefix of the inputs' ids (two forms may show the choice on one page). */
  idPrefix: string;
  disabled?: boolean;
  /** Under a heading that already says "Order Updates": the legend names the group for assistive technology only, and the box goes. */
  underHeading?: boolean;
}

/**
 * "Order updates": text, WhatsApp or neither, as radios named `updates` (posted as they are by a
 * form without scripts). Each choice's words say who sends what; the WhatsApp one is the opt-in.
 */
export default function UpdateChannelChoices({ chosen, whatsapp, idPrefix, disabled, underHeading = false }: Props) {
  const channels = UPDATE_CHANNELS.filter((c) => c !== 'whatsapp' || whatsapp || chosen === 'whatsapp');
  return (
    <fieldset className={underHeading ? 'updates-choice updates-choice-bare' : 'updates-choice'} disabled={disabled}>
      <legend className={underHeading ? 'visually-hidden' : undefined}>Order updates</legend>
      {channels.map((channel) => (
        <div className="updates-option" key={channel}>
          <input type="radio" id={`${idPrefix}-${channel}`} name="updates" value={channel} defaultChecked={chosen === channel} aria-describedby={`${idPrefix}-${channel}-hint`} />
          <label htmlFor={`${idPrefix}-${channel}`}>{UPDATE_CHANNEL_CHOICES[channel].label}</label>
          <p className="updates-hint" id={`${idPrefix}-${channel}-hint`}>
            {UPDATE_CHANNEL_CHOICES[channel].hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}
