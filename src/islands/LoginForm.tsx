import { useState } from 'react';
import { api } from '@/lib/client/api';
import { sendAndShow, useFormSubmit } from '@/lib/client/forms';
import { setProfileFromUser } from '@/lib/client/session';
import { verificationPending } from '@/lib/client/stores';
import CsrfInput from '@/components/CsrfInput';
import Field from '@/components/Field';
import { TOASTS } from '@/lib/domain/toasts';

/** Sign in. Success: TOASTS['logged-in'] then home (or ?next=). Unverified: offers the code again. */
export default function LoginForm({ csrf, next }: { csrf?: string | null; next?: string | null }) {
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const { busy, onSubmit } = useFormSubmit({
    failed: TOASTS['login-failed'],
    unreachable: TOASTS['error-try-again'],
    handle401: false,
    onSuccess: (body) => {
      setProfileFromUser(body.data.user);
      return { toast: body.message || TOASTS['logged-in'], next: body.data?.next || '/' };
    },
    refusal: ({ body }, values) => {
      if (body?.needsVerification) setUnverifiedEmail((values.email ?? '').trim().toLowerCase());
      return undefined;
    },
  });

  async function resendCode() {
    if (!unverifiedEmail) return;
    setResending(true);
    const sent = await sendAndShow(() => api('/user-auth/resend-otp', { method: 'POST', body: { email: unverifiedEmail } }), {
      failed: TOASTS['otp-resend-failed'],
      onSuccess: () => {
        verificationPending(unverifiedEmail);
        return { next: '/verify-otp' };
      },
    });
    if (sent !== 'navigating') setResending(false);
  }

  const action = next ? `/api/v1/user-auth/login?next=${encodeURIComponent(next)}` : '/api/v1/user-auth/login';
  return (
    <form className="acct-form" method="post" action={action} onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      {unverifiedEmail && (
        <div className="acct-notice" role="status">
          <p>Please verify your email before logging in. We can send you a new code.</p>
          <button type="button" className="btn btn-outline" onClick={resendCode} disabled={resending}>
            Resend OTP
          </button>
          <a href="/verify-otp" onClick={() => verificationPending(unverifiedEmail)}>
            I already have a code
          </a>
        </div>
      )}
      <Field id="login-email" label="Email" name="email" type="email" autoComplete="email" required maxLength={254} />
      <Field id="login-password" label="Password" name="password" type="password" autoComplete="current-password" required maxLength={1024} />
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
