import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { api } from '../lib/client/api';
import { setProfileFromUser } from '../lib/client/session';
import { $registeredEmail } from '../lib/client/stores';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

/** Sign in. Success: the server's message, then home after 1 second. Unverified: offers the code again. */
export default function LoginForm({ csrf, next }: { csrf?: string | null; next?: string | null }) {
  const [busy, setBusy] = useState(false);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [resending, setResending] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.currentTarget)) as { email: string; password: string };
    setBusy(true);
    try {
      const { ok, body } = await api(next ? `/user-auth/login?next=${encodeURIComponent(next)}` : '/user-auth/login', { method: 'POST', body: data, handle401: false });
      if (ok && body.status) {
        setProfileFromUser(body.data.user);
        toast.success(body.message || TOASTS['logged-in'], { duration: 3000 });
        setTimeout(() => window.location.assign(body.data?.next || '/'), 1000);
        return;
      }
      if (body?.needsVerification) setUnverifiedEmail(data.email.trim().toLowerCase());
      toast.error(body?.message || TOASTS['login-failed']);
    } catch {
      toast.error(TOASTS['error-try-again']);
    }
    setBusy(false);
  }

  async function resendCode() {
    if (!unverifiedEmail) return;
    setResending(true);
    try {
      const { ok, body } = await api('/user-auth/resend-otp', { method: 'POST', body: { email: unverifiedEmail } });
      if (ok && body.status) {
        toast.success(body.message);
        $registeredEmail.set(unverifiedEmail);
        setTimeout(() => window.location.assign('/verify-otp'), 900);
        return;
      }
      toast.error(body?.message || TOASTS['otp-resend-failed']);
    } catch {
      toast.error(TOASTS['otp-resend-failed']);
    }
    setResending(false);
  }

  return (
    <form className="acct-form" method="post" action={next ? `/api/v1/user-auth/login?next=${encodeURIComponent(next)}` : '/api/v1/user-auth/login'} onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      {unverifiedEmail && (
        <div className="acct-notice" role="status">
          <p>Please verify your email before logging in. We can send you a new code.</p>
          <button type="button" className="btn btn-outline" onClick={resendCode} disabled={resending}>
            Resend OTP
          </button>
          <a
            href="/verify-otp"
            onClick={() => {
              $registeredEmail.set(unverifiedEmail);
            }}
          >
            I already have a code
          </a>
        </div>
      )}
      <div className="acct-field">
        <label htmlFor="login-email">Email</label>
        <input id="login-email" name="email" type="email" autoComplete="email" required maxLength={254} />
      </div>
      <div className="acct-field">
        <label htmlFor="login-password">Password</label>
        <input id="login-password" name="password" type="password" autoComplete="current-password" required maxLength={1024} />
      </div>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Login'}
      </button>
      <p className="acct-links">
        <a href="/forgot-password">Forgot your password?</a>
        <a href="/register">Create account</a>
      </p>
    </form>
  );
}
