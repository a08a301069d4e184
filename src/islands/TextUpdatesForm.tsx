import { useFormSubmit } from '@/lib/client/forms';
import CsrfInput from '@/components/CsrfInput';
import SubmitButton from '@/components/SubmitButton';
import { TOASTS } from '@/lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  /** Whether the shopper already opted in. */
  on: boolean;
}

/**
 * Settings: "Text me order updates" (placed, dispatched, delivered), a real form: without scripts
 * the browser posts it (an unticked box posts nothing, which the endpoint reads as off).
 */
export default function TextUpdatesForm({ csrf, on }: Props) {
  const form = useFormSubmit({
    failed: TOASTS['text-updates-failed'],
    method: 'PATCH',
    body: ({ textUpdates }) => ({ textUpdates: textUpdates === 'on' }),
  });
  return (
    <section className="acct-panel" aria-labelledby="settings-texts">
      <h2 id="settings-texts">Text Messages</h2>
      <form className="acct-form" method="post" action="/api/v1/user-auth/text-updates" onSubmit={form.onSubmit}>
        <CsrfInput token={csrf} />
        <label className="acct-check">
          <input type="checkbox" name="textUpdates" defaultChecked={on} aria-describedby="set-texts-hint" />
          <span>Text me order updates</span>
        </label>
        <p id="set-texts-hint" className="field-hint">
          A short text to your phone number when an order is placed, dispatched and delivered.
        </p>
        <SubmitButton busy={form.busy} busyLabel="Saving…">
          Save Text Messages
        </SubmitButton>
      </form>
    </section>
  );
}
