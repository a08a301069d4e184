import { passwordProblem } from '@/lib/domain/account-rules';
import { useFormSubmit } from '@/lib/client/forms';
import { verificationPending } from '@/lib/client/stores';
import CsrfInput from '@/components/CsrfInput';
import CountryOptions from '@/components/account/CountryOptions';
import Field from '@/components/Field';
import { TOASTS } from '@/lib/domain/toasts';

/** Sign Up: creates the account, remembers the e-mail for /verify-otp and goes there. */
export default function RegisterForm({ csrf }: { csrf?: string | null }) {
  const { busy, onSubmit } = useFormSubmit({
    failed: TOASTS['registration-failed'],
    check: (values) => passwordProblem(values.password ?? ''),
    onSuccess: (body, values) => {
      verificationPending(body.data?.user?.email ?? (values.email ?? '').trim().toLowerCase());
      return { next: '/verify-otp' };
    },
  });

  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/create" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <div className="acct-row">
        <Field id="reg-first" label="First Name" name="firstName" autoComplete="given-name" required maxLength={60} />
        <Field id="reg-last" label="Last Name" name="lastName" autoComplete="family-name" required maxLength={60} />
      </div>
      <Field id="reg-email" label="Email" name="email" type="email" autoComplete="email" required maxLength={254} />
      <Field
        id="reg-password"
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint="At least 8 characters."
      />
      <Field
        id="reg-phone"
        label="Phone Number"
        name="phoneNumber"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        maxLength={20}
        placeholder="+234 803 123 4567"
      />
      <Field id="reg-country" label="Country">
        <select id="reg-country" name="country" defaultValue="nigeria" required>
          <CountryOptions />
        </select>
      </Field>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Creating account…' : 'Sign Up'}
      </button>
      <p className="acct-links">
        <span>
          Already have an account? <a href="/login">Login</a>
        </span>
      </p>
    </form>
  );
}
