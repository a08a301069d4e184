import { useFormSubmit } from '@/lib/client/forms';
import CsrfInput from '@/components/CsrfInput';
import SubmitButton from '@/components/account/SubmitButton';
import UpdateChannelChoices from '@/components/UpdateChannelChoices';
import type { UpdateChannel } from '@/lib/domain/order-updates';
import { TOASTS } from '@/lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  /** The shopper's current choice. */
  chosen: UpdateChannel;
  /** Whether the store offers WhatsApp. */
  whatsapp: boolean;
}

/**
 * Settings: "Order updates" by text, WhatsApp or neither, a real form: without scripts the browser
 * posts the ticked radio.
 */
export default function TextUpdatesForm({ csrf, chosen, whatsapp }: Props) {
  const form = useFormSubmit({
    failed: TOASTS['text-updates-failed'],
    method: 'PATCH',
    body: ({ updates }) => ({ updates }),
  });
  return (
    <section className="acct-panel" aria-labelledby="settings-texts">
      <h2 id="settings-texts">Order Updates</h2>
      <form className="acct-form" method="post" action="/api/v1/user-auth/text-updates" onSubmit={form.onSubmit}>
        <CsrfInput token={csrf} />
        <UpdateChannelChoices chosen={chosen} whatsapp={whatsapp} idPrefix="set-updates" disabled={form.busy} underHeading />
        <SubmitButton busy={form.busy} busyLabel="Saving…">
          Save Order Updates
        </SubmitButton>
      </form>
    </section>
  );
}
