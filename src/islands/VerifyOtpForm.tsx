import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { isValidOtp, MESSAGES } from '../lib/domain/account-rules';
import { api } from '../lib/client/api';
import { $registeredEmail } from '../lib/client/stores';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

/** Enter the 4-digit registration code; Resend OTP. Without a registered e-mail, back to /register. */
interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  /** From ?email= after a form posted without scripts. */
  initialEmail?: string | null;
}

export default function VerifyOtpForm({ initialEmail = null, csrf }: Props) {
  const stored = useStore($registeredEmail);
  const email = stored ?? initialEmail;
  const [otp, setOtp] = useState('');
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const [ready, setReady] = useState(Boolean(initialEmail));

  useEffect(() => {
    // Read after hydration: the persistent store is only known in the browser.
    if (!$registeredEmail.get() && !initialEmail) window.location.replace('/register');
    else setReady(true);
  }, [initialEmail]);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!isValidOtp(otp.trim())) return void toast.error(MESSAGES.invalidOtp);
    setBusy(true);
    try {
      const { ok, body } = await api('/user-auth/verify-otp', { method: 'POST', body: { email, otp: otp.trim() } });
      if (ok && body.status) {
        toast.success(body.message);
        $registeredEmail.set(null);
        setTimeout(() => window.location.assign('/login'), 900);
        return;
      }
      toast.error(body?.message || TOASTS['otp-verify-failed']);
    } catch {
      toast.error(TOASTS['otp-verify-failed']);
    }
    setBusy(false);
  }

  async function resend() {
    setResending(true);
    try {
      const { ok, body } = await api('/user-auth/resend-otp', { method: 'POST', body: { email } });
      if (ok && body.status) toast.success(body.message);
      else toast.error(body?.message || TOASTS['otp-resend-failed']);
    } catch {
      toast.error(TOASTS['otp-resend-failed']);
    }
    setResending(false);
  }

  if (!ready) return <p className="acct-lead">Loading…</p>;
  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/verify-otp" onSubmit={onSubmit} noValidate>
      <CsrfInput token={csrf} />
      <p className="acct-lead">
        We sent a 4-digit code to <strong>{email}</strong>.
      </p>
      <input type="hidden" name="email" value={email ?? ''} />
      <div className="acct-field">
        <label htmlFor="otp">Verification Code</label>
        <input
          id="otp"
          name="otp"
          className="acct-otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{4}"
          maxLength={4}
          required
          value={otp}
          onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, 4))}
        />
      </div>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Verifying…' : 'Verify'}
      </button>
      <p className="acct-links">
        <span>
          Didn't get it?{' '}
          <button
            type="submit"
            className="acct-linkbtn"
            formAction="/api/v1/user-auth/resend-otp"
            formNoValidate
            onClick={(e) => {
              e.preventDefault();
              void resend();
            }}
            disabled={resending}
          >
            Resend OTP
          </button>
        </span>
        <a href="/register">Use another email</a>
      </p>
    </form>
  );
}
