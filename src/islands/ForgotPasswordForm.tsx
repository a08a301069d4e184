import { useFormSubmit } from '@/lib/client/forms';
import { resetRequested } from '@/lib/client/stores';
import CsrfInput from '@/components/CsrfInput';
import Field from '@/components/Field';
import { TOASTS } from '@/lib/domain/toasts';

const normalEmail = (email: string | undefined) => (email ?? '').trim().toLowerCase();

/** Asks for a reset code; remembers the e-mail for /reset-password. */
export default function ForgotPasswordForm({ csrf }: { csrf?: string | null }) {
  const { busy, onSubmit } = useFormSubmit({
    failed: TOASTS['went-wrong'],
    body: (values) => ({ email: normalEmail(values.email) }),
    succeeded: ({ ok, body }) => ok && Boolean(body?.success || body?.status),
    onSuccess: (_body, values) => {
      resetRequested(normalEmail(values.email));
      return { next: '/reset-password' };
    },
    refusal: ({ status }) => (status === 404 ? TOASTS['email-not-found'] : undefined),
  });

  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/forgot-password" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <Field id="forgot-email" label="Email" name="email" type="email" autoComplete="email" required maxLength={254} />
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send Reset Link'}
      </button>
      <p className="acct-links">
        <a href="/login">Back to Login</a>
      </p>
    </form>
  );
}
