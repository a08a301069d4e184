import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { passwordProblem } from '../lib/domain/account-rules';
import { COUNTRIES, COUNTRY_NAMES, DEFAULT_COUNTRY } from '../lib/domain/geo';
import { api } from '../lib/client/api';
import { $registeredEmail } from '../lib/client/stores';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

/** Sign Up: creates the account, remembers the e-mail for /verify-otp and goes there. */
export default function RegisterForm({ csrf }: { csrf?: string | null }) {
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const problem = passwordProblem(data.password ?? '');
    if (problem) return void toast.error(problem);
    setBusy(true);
    try {
      const { ok, body } = await api('/user-auth/create', { method: 'POST', body: data });
      if (ok && body.status) {
        $registeredEmail.set(body.data?.user?.email ?? data.email!.trim().toLowerCase());
        toast.success(body.message);
        setTimeout(() => window.location.assign('/verify-otp'), 900);
        return;
      }
      toast.error(body?.message || TOASTS['registration-failed']);
    } catch {
      toast.error(TOASTS['registration-failed']);
    }
    setBusy(false);
  }

  return (
    <form className="acct-form" method="post" action="/api/v1/user-auth/create" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <div className="acct-row">
        <div className="acct-field">
          <label htmlFor="reg-first">First Name</label>
          <input id="reg-first" name="firstName" autoComplete="given-name" required maxLength={60} />
        </div>
        <div className="acct-field">
          <label htmlFor="reg-last">Last Name</label>
          <input id="reg-last" name="lastName" autoComplete="family-name" required maxLength={60} />
        </div>
      </div>
      <div className="acct-field">
        <label htmlFor="reg-email">Email</label>
        <input id="reg-email" name="email" type="email" autoComplete="email" required maxLength={254} />
      </div>
      <div className="acct-field">
        <label htmlFor="reg-password">Password</label>
        <input id="reg-password" name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} aria-describedby="reg-password-hint" />
        <span id="reg-password-hint" className="acct-hint">At least 8 characters.</span>
      </div>
      <div className="acct-field">
        <label htmlFor="reg-phone">Phone Number</label>
        <input id="reg-phone" name="phoneNumber" type="tel" autoComplete="tel" inputMode="tel" required maxLength={20} placeholder="+234 803 123 4567" />
      </div>
      <div className="acct-field">
        <label htmlFor="reg-country">Country</label>
        <select id="reg-country" name="country" defaultValue={DEFAULT_COUNTRY} required>
          {COUNTRIES.map((c) => (
            <option key={c} value={c}>
              {COUNTRY_NAMES[c]}
            </option>
          ))}
        </select>
      </div>
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
