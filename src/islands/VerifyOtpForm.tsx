import { useState } from 'react';
import { isValidOtp } from '@/lib/domain/account-rules';
import { api } from '@/lib/client/api';
import { sendAndShow, useFormSubmit } from '@/lib/client/forms';
import { usePendingEmail, type CodeFormProps } from '@/lib/client/pending-email';
import { $registeredEmail, verificationDone } from '@/lib/client/stores';
import CsrfInput from '@/components/CsrfInput';
import OtpField from '@/components/account/OtpField';
import { TOASTS } from '@/lib/domain/toasts';

/** Enter the 4-digit registration code; Resend OTP. Without a registered e-mail, back to /register. */
export default function VerifyOtpForm({ initialEmail = null, csrf }: CodeFormProps) {
  const { email, ready } = usePendingEmail($registeredEmail, initialEmail, '/register');
  const [resending, setResending] = useState(false);

  const { busy, onSubmit } = useFormSubmit({
    failed: TOASTS['otp-verify-failed'],
    check: ({ otp = '' }) => (isValidOtp(otp.trim()) ? null : TOASTS['invalid-otp']),
    body: ({ email = '', otp = '' }) => ({ email, otp: otp.trim() }),
    onSuccess: () => {
      verificationDone();
      return { next: '/login' };
    },
  });

  async function resend() {
    setResending(true);
    await sendAndShow(() => api('/user-auth/resend-otp', { method: 'POST', body: { email } }), {
      failed: TOASTS['otp-resend-failed'],
      onSuccess: () => ({}),
    });
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
      <OtpField id="otp" label="Verification Code" />
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
