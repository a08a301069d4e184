import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { isValidOtp, MESSAGES, passwordProblem } from '../lib/domain/account-rules';
import { api } from '../lib/client/api';
import { $resetEmail } from '../lib/client/stores';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

/** 4-digit code, new password, confirm password. Without a reset e-mail, back to /forgot-password. */
interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  /** From ?email= after a form posted without scripts. */
  initialEmail?: string | null;
}

export default function ResetPasswordForm({ initialEmail = null, csrf }: Props) {
  const stored = useStore($resetEmail);
  const email = stored ?? initialEmail;
  const [otp, setOtp] = useState('');
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(Boolean(initialEmail));

  useEffect(() => {
    if (!$resetEmail.get() && !initialEmail) window.location.replace('/forgot-password');
    else setReady(true);
  }, [initialEmail]);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const newPassword = String(form.get('newPassword') ?? '');
    const confirmPassword = String(form.get('confirmPassword') ?? '');
    if (!isValidOtp(otp.trim())) return void toast.error(MESSAGES.invalidOtp);
    if (newPassword !== confirmPassword) return void toast.error(MESSAGES.passwordsDoNotMatch);
    const problem = passwordProblem(newPassword);
    if (problem) return void toast.error(problem);
    setBusy(true);
    try {
      const { ok, body } = await api('/user-auth/reset-password', {
        method: 'POST',
        body: { email, otp: otp.trim(), newPassword, confirmPassword },
      });
      if (ok && body.status) {
        toast.success(body.message);
        $resetEmail.set(null);
        setTimeout(() => window.location.assign('/login'), 900);
        return;
      }
      toast.error(body?.message || TOASTS['password-reset-failed']);
    } catch {
      toast.error(TOASTS['password-reset-failed']);
    }
    setBusy(false);
  }

  if (!ready) return <p className="acct-lead">Loading…</p>;
  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/reset-password" onSubmit={onSubmit} noValidate>
      <CsrfInput token={csrf} />
      <p className="acct-lead">
        Enter the code we sent to <strong>{email}</strong> and choose a new password.
      </p>
      <input type="hidden" name="email" value={email ?? ''} />
      <div className="acct-field">
        <label htmlFor="reset-otp">Reset Code</label>
        <input
          id="reset-otp"
          name="otp"
          className="acct-otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={4}
          required
          value={otp}
          onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, 4))}
        />
      </div>
      <div className="acct-field">
        <label htmlFor="reset-new">New Password</label>
        <input id="reset-new" name="newPassword" type="password" autoComplete="new-password" required minLength={8} maxLength={128} />
      </div>
      <div className="acct-field">
        <label htmlFor="reset-confirm">Confirm Password</label>
        <input id="reset-confirm" name="confirmPassword" type="password" autoComplete="new-password" required maxLength={128} />
      </div>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Reset Password'}
      </button>
      <p className="acct-links">
        <a href="/forgot-password">Send a new code</a>
        <a href="/login">Back to Login</a>
      </p>
    </form>
  );
}
