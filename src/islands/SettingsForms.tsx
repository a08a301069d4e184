import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { MESSAGES, passwordProblem } from '../lib/domain/account-rules';
import { COUNTRIES, COUNTRY_NAMES } from '../lib/domain/geo';
import { api } from '../lib/client/api';
import { setProfileFromUser, type ApiUser } from '../lib/client/session';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  user: ApiUser & { phoneNumber: string };
}

/** Profile info fields that save, and the change-password part. */
export default function SettingsForms({ user, csrf }: Props) {
  const [savingProfile, setSavingProfile] = useState(false);
  const [savingPassword, setSavingPassword] = useState(false);

  async function saveProfile(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.currentTarget));
    setSavingProfile(true);
    try {
      const { ok, body } = await api('/user-auth/profile', { method: 'PATCH', body: data });
      if (ok && body.status) {
        setProfileFromUser(body.data);
        toast.success(body.message);
      } else if (body?.message) toast.error(body.message);
    } catch {
      toast.error(TOASTS['profile-update-failed']);
    }
    setSavingProfile(false);
  }

  async function changePassword(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const oldPassword = String(data.get('oldPassword') ?? '');
    const newPassword = String(data.get('newPassword') ?? '');
    if (!oldPassword || !newPassword) return void toast.error(MESSAGES.fillBothPasswords);
    const problem = passwordProblem(newPassword);
    if (problem) return void toast.error(problem);
    setSavingPassword(true);
    try {
      const { ok, status, body } = await api(`/user-auth/change-password/${encodeURIComponent(user.id)}`, {
        method: 'PATCH',
        body: { oldPassword, newPassword },
      });
      if (ok && body.status) {
        toast.success(body.message);
        form.reset();
      } else if (status === 403) {
        // the session belongs to someone else than this page's account (spec message)
        toast.error(TOASTS['auth-error']);
      } else if (status !== 401) {
        toast.error(body?.message || TOASTS['password-change-failed']);
      }
    } catch {
      toast.error(TOASTS['password-change-error']);
    }
    setSavingPassword(false);
  }

  return (
    <div className="settings">
      <section className="acct-panel" aria-labelledby="settings-profile">
        <h2 id="settings-profile">Profile Information</h2>
        <form className="acct-form" method="post" action="/api/v1/user-auth/profile" onSubmit={saveProfile}>
          <CsrfInput token={csrf} />
          <div className="acct-row">
            <div className="acct-field">
              <label htmlFor="set-first">First Name</label>
              <input id="set-first" name="firstName" autoComplete="given-name" required maxLength={60} defaultValue={user.firstName} />
            </div>
            <div className="acct-field">
              <label htmlFor="set-last">Last Name</label>
              <input id="set-last" name="lastName" autoComplete="family-name" required maxLength={60} defaultValue={user.lastName} />
            </div>
          </div>
          <div className="acct-field">
            <label htmlFor="set-email">Email</label>
            <input id="set-email" type="email" value={user.email} readOnly aria-describedby="set-email-hint" />
            <span id="set-email-hint" className="acct-hint">
              Your sign-in email cannot be changed here.
            </span>
          </div>
          <div className="acct-row">
            <div className="acct-field">
              <label htmlFor="set-phone">Phone Number</label>
              <input id="set-phone" name="phoneNumber" type="tel" autoComplete="tel" required maxLength={20} defaultValue={user.phoneNumber} />
            </div>
            <div className="acct-field">
              <label htmlFor="set-country">Country</label>
              <select id="set-country" name="country" defaultValue={user.country}>
                {COUNTRIES.map((c) => (
                  <option key={c} value={c}>
                    {COUNTRY_NAMES[c]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <button className="btn" type="submit" disabled={savingProfile}>
            {savingProfile ? 'Saving…' : 'Save Changes'}
          </button>
        </form>
      </section>
      <section className="acct-panel" aria-labelledby="settings-password">
        <h2 id="settings-password">Change Password</h2>
        <form className="acct-form" method="post" action={`/api/v1/user-auth/change-password/${user.id}`} onSubmit={changePassword} noValidate>
          <CsrfInput token={csrf} />
          <div className="acct-field">
            <label htmlFor="set-old">Current Password</label>
            <input id="set-old" name="oldPassword" type="password" autoComplete="current-password" maxLength={1024} />
          </div>
          <div className="acct-field">
            <label htmlFor="set-new">New Password</label>
            <input id="set-new" name="newPassword" type="password" autoComplete="new-password" minLength={8} maxLength={128} />
            <span className="acct-hint">At least 8 characters. You will stay signed in here and be signed out elsewhere.</span>
          </div>
          <button className="btn" type="submit" disabled={savingPassword}>
            {savingPassword ? 'Changing…' : 'Change Password'}
          </button>
        </form>
      </section>
    </div>
  );
}
