import { useState } from 'react';
import { useFormSubmit } from '@/lib/client/forms';
import CsrfInput from '@/components/CsrfInput';
import { TOASTS } from '@/lib/domain/toasts';

export type NewsletterState = 'pending' | 'confirmed' | 'unsubscribed' | null;

interface Props {
  csrf?: string | null;
  /** The account e-mail's subscription, as the page found it. */
  status: NewsletterState;
  email: string;
}

const STATE_TEXT: Record<'pending' | 'confirmed' | 'none', string> = {
  confirmed: 'You are subscribed.',
  pending: 'Waiting for your confirmation: open the link we e-mailed you.',
  none: 'You are not subscribed.',
};

/**
 * The Newsletter choice on /settings: a real form (a checkbox and Save) that posts without scripts;
 * the island sends the same form and shows the answer as a toast. Ticking it subscribes the
 * account's e-mail (double opt-in: a confirm mail goes out); unticking it unsubscribes.
 */
export default function NewsletterPreference({ csrf, status: initial, email }: Props) {
  const [status, setStatus] = useState<NewsletterState>(initial);
  const { busy, onSubmit } = useFormSubmit<{ data?: { newsletter?: NewsletterState } }>({
    failed: TOASTS['newsletter-failed'],
    onSuccess: (body) => {
      setStatus(body.data?.newsletter ?? null);
      return {};
    },
  });
  const subscribed = status === 'pending' || status === 'confirmed';
  return (
    <form className="acct-form" method="post" action="/api/v1/newsletter/preference" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <label className="acct-check" htmlFor="set-newsletter">
        <input id="set-newsletter" type="checkbox" name="newsletter" value="yes" defaultChecked={subscribed} aria-describedby="set-newsletter-hint" />
        <span>Send me the Newsletter</span>
      </label>
      <p id="set-newsletter-hint" className="field-hint" role="status">
        New arrivals, private sales and styling notes, sent to {email}. {STATE_TEXT[subscribed ? status : 'none']}
      </p>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save Newsletter Choice'}
      </button>
    </form>
  );
}
