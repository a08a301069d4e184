import { passwordProblem } from '@/lib/domain/account-rules';
import { useFormSubmit } from '@/lib/client/forms';
import { setProfileFromUser, type ApiUser } from '@/lib/client/session';
import CsrfInput from '@/components/CsrfInput';
import CountryOptions from '@/components/account/CountryOptions';
import Field from '@/components/Field';
import SubmitButton from '@/components/account/SubmitButton';
import { TOASTS } from '@/lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  user: ApiUser & { phoneNumber: string };
}

/** Profile info fields that save, and the change-password part. */
export default function SettingsForms({ user, csrf }: Props) {
  const profile = useFormSubmit({
    failed: TOASTS['profile-update-failed'],
    method: 'PATCH',
    onSuccess: (body) => {
      setProfileFromUser(body.data);
      return {};
    },
    // A refusal says what the server said, or nothing.
    refusal: ({ body }) => body?.message || null,
  });

  const password = useFormSubmit({
    failed: TOASTS['password-change-failed'],
    unreachable: TOASTS['password-change-error'],
    method: 'PATCH',
    check: ({ oldPassword, newPassword }) => (!oldPassword || !newPassword ? TOASTS['fill-both-passwords'] : passwordProblem(newPassword)),
    body: ({ oldPassword, newPassword }) => ({ oldPassword, newPassword }),
    onSuccess: (_body, _values, form) => {
      form.reset();
      return {};
    },
    // 403: the session belongs to someone else than this page's account (the auth-error toast);
    // 401: the API client already said the session expired.
    refusal: ({ status }) => (status === 403 ? TOASTS['auth-error'] : status === 401 ? null : undefined),
  });

  return (
    <div className="settings">
      <section className="acct-panel" aria-labelledby="settings-profile">
        <h2 id="settings-profile">Profile Information</h2>
        <form className="acct-form" method="post" action="/api/v1/user-auth/profile" onSubmit={profile.onSubmit} data-offline-resend="">
          <CsrfInput token={csrf} />
          <div className="acct-row">
            <Field id="set-first" label="First Name" name="firstName" autoComplete="given-name" required maxLength={60} defaultValue={user.firstName} />
            <Field id="set-last" label="Last Name" name="lastName" autoComplete="family-name" required maxLength={60} defaultValue={user.lastName} />
          </div>
          <Field id="set-email" label="Email" type="email" value={user.email} readOnly hint="Your sign-in email cannot be changed here." />
          <div className="acct-row">
            <Field id="set-phone" label="Phone Number" name="phoneNumber" type="tel" autoComplete="tel" required maxLength={20} defaultValue={user.phoneNumber} />
            <Field id="set-country" label="Country">
              <select id="set-country" name="country" defaultValue={user.country}>
                <CountryOptions />
              </select>
            </Field>
          </div>
          <SubmitButton busy={profile.busy} busyLabel="Saving…">
            Save Changes
          </SubmitButton>
        </form>
      </section>
      <section className="acct-panel" aria-labelledby="settings-password">
        <h2 id="settings-password">Change Password</h2>
        <form className="acct-form" method="post" action={`/api/v1/user-auth/change-password/${user.id}`} onSubmit={password.onSubmit} noValidate>
          <CsrfInput token={csrf} />
          <Field id="set-old" label="Current Password" name="oldPassword" type="password" autoComplete="current-password" maxLength={1024} />
          <Field
            id="set-new"
            label="New Password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            minLength={8}
            maxLength={128}
            hint="At least 8 characters. You will stay signed in here and be signed out elsewhere."
          />
          <SubmitButton busy={password.busy} busyLabel="Changing…">
            Change Password
          </SubmitButton>
        </form>
      </section>
    </div>
  );
}
