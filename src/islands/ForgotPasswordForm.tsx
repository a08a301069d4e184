import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { api } from '../lib/client/api';
import { $resetEmail } from '../lib/client/stores';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';
import { MESSAGES as ACCOUNT } from '../lib/domain/account-rules';

/** Asks for a reset code; remembers the e-mail for /reset-password. */
export default function ForgotPasswordForm({ csrf }: { csrf?: string | null }) {
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '').trim().toLowerCase();
    setBusy(true);
    try {
      const { ok, status, body } = await api('/user-auth/forgot-password', { method: 'POST', body: { email } });
      if (ok && (body.success || body.status)) {
        $resetEmail.set(email);
        toast.success(body.message);
        setTimeout(() => window.location.assign('/reset-password'), 900);
        return;
      }
      toast.error(status === 404 ? ACCOUNT.emailNotFound : body?.message || TOASTS['went-wrong']);
    } catch {
      toast.error(TOASTS['went-wrong']);
    }
    setBusy(false);
  }

  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/forgot-password" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <div className="acct-field">
        <label htmlFor="forgot-email">Email</label>
        <input id="forgot-email" name="email" type="email" autoComplete="email" required maxLength={254} />
      </div>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send Reset Link'}
      </button>
      <p className="acct-links">
        <a href="/login">Back to Login</a>
      </p>
    </form>
  );
}
