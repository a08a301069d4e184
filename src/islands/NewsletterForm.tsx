import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { api } from '../lib/client/api';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

/**
 * The newsletter box. A real form (POST to the subscribe endpoint) that the island
 * upgrades to an in-place request with toasts.
 */
export default function NewsletterForm({ csrf }: { csrf?: string | null }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!e.currentTarget.reportValidity()) return;
    setBusy(true);
    try {
      const { body } = await api<{ status?: boolean; message?: string; data?: { alreadySubscribed?: boolean } }>('/api/v1/newsletter/subscribe', {
        method: 'POST',
        body: { email },
      });
      if (body?.status) {
        toast.success(body.message ?? TOASTS['newsletter-subscribed']);
        setEmail('');
      } else {
        toast.error(body?.message ?? TOASTS['newsletter-failed']);
      }
    } catch {
      toast.error(TOASTS['newsletter-failed']);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="newsletter-form" method="post" action="/api/v1/newsletter/subscribe" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <label htmlFor="newsletter-email" className="visually-hidden">
        Email address
      </label>
      <input
        id="newsletter-email"
        type="email"
        name="email"
        required
        autoComplete="email"
        placeholder="Enter your email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button type="submit" className="btn" disabled={busy}>
        SUBSCRIBE
      </button>
    </form>
  );
}
