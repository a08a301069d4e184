import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { COUNTRIES, COUNTRY_NAMES, DEFAULT_COUNTRY, STATES, type Country } from '../lib/domain/geo';
import { api } from '../lib/client/api';
import type { AddressView } from './AddressList';
import CsrfInput from '../components/CsrfInput';
import { TOASTS } from '../lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  userId: string;
  /** Present when editing. */
  address?: AddressView;
  /** The first address always becomes the default. */
  firstAddress?: boolean;
}

/** New Address / Edit Address. The 'State or Province' list follows the country and is cleared when it changes. */
export default function AddressForm({ userId, address, firstAddress = false, csrf }: Props) {
  const editing = Boolean(address);
  const [country, setCountry] = useState<Country>((address?.country as Country) ?? DEFAULT_COUNTRY);
  const [state, setState] = useState(address?.state ?? '');
  const [busy, setBusy] = useState(false);
  // Without scripts the state list cannot follow the country: it offers both, grouped (the server checks the pair).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const body = {
      userId,
      name: String(form.get('name') ?? ''),
      country,
      state,
      city: String(form.get('city') ?? ''),
      address: String(form.get('address') ?? ''),
      zipCode: String(form.get('zipCode') ?? ''),
      active: form.get('active') === 'on',
    };
    setBusy(true);
    try {
      const { ok, body: res } = editing
        ? await api(`/address/edit/${address!.id}`, { method: 'PATCH', body })
        : await api('/address/create', { method: 'POST', body });
      if (ok && res.status) {
        toast.success(res.message);
        setTimeout(() => window.location.assign('/address-history'), 700);
        return;
      }
      toast.error(res?.message || TOASTS['address-save-failed']);
    } catch {
      toast.error(TOASTS['address-save-failed']);
    }
    setBusy(false);
  }

  return (
    <form
      className="acct-form"
      method="post"
      action={editing ? `/api/v1/address/edit/${address!.id}` : '/api/v1/address/create'}
      onSubmit={onSubmit}
    >
      <CsrfInput token={csrf} />
      <div className="acct-field">
        <label htmlFor="addr-name">Full Name</label>
        <input id="addr-name" name="name" autoComplete="name" required maxLength={100} defaultValue={address?.name} />
      </div>
      <div className="acct-row">
        <div className="acct-field">
          <label htmlFor="addr-country">Country</label>
          <select
            id="addr-country"
            name="country"
            required
            value={country}
            onChange={(e) => {
              setCountry(e.target.value as Country);
              setState('');
            }}
          >
            {COUNTRIES.map((c) => (
              <option key={c} value={c}>
                {COUNTRY_NAMES[c]}
              </option>
            ))}
          </select>
        </div>
        <div className="acct-field">
          <label htmlFor="addr-state">State or Province</label>
          <select id="addr-state" name="state" required value={state} onChange={(e) => setState(e.target.value)}>
            <option value="" disabled>
              Select…
            </option>
            {hydrated
              ? STATES[country].map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))
              : COUNTRIES.map((c) => (
                  <optgroup key={c} label={COUNTRY_NAMES[c]}>
                    {STATES[c].map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </optgroup>
                ))}
          </select>
        </div>
      </div>
      <div className="acct-row">
        <div className="acct-field">
          <label htmlFor="addr-city">City</label>
          <input id="addr-city" name="city" autoComplete="address-level2" required maxLength={80} defaultValue={address?.city} />
        </div>
        <div className="acct-field">
          <label htmlFor="addr-zip">Zip Code</label>
          <input id="addr-zip" name="zipCode" autoComplete="postal-code" required maxLength={12} defaultValue={address?.zipCode} />
        </div>
      </div>
      <div className="acct-field">
        <label htmlFor="addr-street">Address</label>
        <input id="addr-street" name="address" autoComplete="street-address" required maxLength={200} defaultValue={address?.address} />
      </div>
      <label className="acct-check">
        <input
          type="checkbox"
          name="active"
          defaultChecked={address?.active ?? firstAddress}
          disabled={firstAddress || address?.active}
        />
        <span>{firstAddress ? 'Default address (your first address is the default)' : 'Set as default address'}</span>
      </label>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? 'Saving…' : editing ? 'Update Address' : 'Save Address'}
      </button>
    </form>
  );
}
