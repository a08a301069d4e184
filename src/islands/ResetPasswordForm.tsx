import { isValidOtp, passwordProblem } from '@/lib/domain/account-rules';
import { useFormSubmit } from '@/lib/client/forms';
import { usePendingEmail, type CodeFormProps } from '@/lib/client/pending-email';
import { $resetEmail, resetDone } from '@/lib/client/stores';
import CsrfInput from '@/components/CsrfInput';
import Field from '@/components/Field';
import OtpField from '@/components/account/OtpField';
import { TOASTS } from '@/lib/domain/toasts';

/** 4-digit code, new password, confirm password. Without a reset e-mail, back to /forgot-password. */
export default function ResetPasswordForm({ initialEmail = null, csrf }: CodeFormProps) {
  const { email, ready } = usePendingEmail($resetEmail, initialEmail, '/forgot-password');

  const { busy, onSubmit } = useFormSubmit({
    failed: TOASTS['password-reset-failed'],
    check: ({ otp = '', newPassword = '', confirmPassword = '' }) => {
      if (!isValidOtp(otp.trim())) return TOASTS['invalid-otp'];
      if (newPassword !== confirmPassword) return TOASTS['passwords-differ'];
      return passwordProblem(newPassword);
    },
    body: ({ email = '', otp = '', newPassword, confirmPassword }) => ({ email, otp: otp.trim(), newPassword, confirmPassword }),
    onSuccess: () => {
      resetDone();
      return { next: '/login' };
    },
  });

  if (!ready) return <p className="acct-lead">Loading…</p>;
  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/reset-password" onSubmit={onSubmit} noValidate>
      <CsrfInput token={csrf} />
      <p className="acct-lead">
        Enter the code we sent to <strong>{email}</strong> and choose a new password.
      </p>
      <input type="hidden" name="email" value={email ?? ''} />
      <OtpField id="reset-otp" label="Reset Code" />
      <Field id="reset-new" label="New Password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} maxLength={128} />
      <Field id="reset-confirm" label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required maxLength={128} />
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
