import { useEffect, useRef, useState } from 'react';
import { COUNTRIES, COUNTRY_NAMES, isCountry, isStateOf, STATES, ZIP_REQUIRED, type Country } from '@/lib/domain/geo';
import { useChoicesMadeEarly, useFormSubmit } from '@/lib/client/forms';
import type { AddressView } from './AddressList';
import CsrfInput from '@/components/CsrfInput';
import CountryOptions from '@/components/account/CountryOptions';
import Field from '@/components/Field';
import { TOASTS } from '@/lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  userId: string;
  /** Present when editing. */
  address?: AddressView;
  /** The first address always becomes the default. */
  firstAddress?: boolean;
  /** The account's phone: a new address's "Phone for delivery" until the shopper changes it. */
  accountPhone?: string;
  /**
   * A local path to go on to once saved (checkout), instead of the address book; the new address
   * then becomes the default, which is the address checkout delivers to.
   */
  next?: string | null;
  /** Added from checkout's "Delivery address": this order goes there, and it is not made the default unless ticked. */
  forOrder?: boolean;
}

/** The create action's query: where to go once saved, and whether this order goes to the new address. */
function createQuery(next: string | null, forOrder: boolean): string {
  const params = new URLSearchParams();
  if (next) params.set('next', next);
  if (forOrder) params.set('forOrder', '1');
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** New Address / Edit Address. The 'State or Province' list follows the country and is cleared when it changes. */
export default function AddressForm({ userId, address, firstAddress = false, csrf, accountPhone = '', next = null, forOrder = false }: Props) {
  const editing = Boolean(address);
  const [country, setCountry] = useState<Country>((address?.country as Country) ?? 'nigeria');
  const [state, setState] = useState(address?.state ?? '');
  // Without scripts the state list cannot follow the country: it offers both, grouped (the server checks the pair).
  const [hydrated, setHydrated] = useState(false);
  const root = useRef<HTMLFormElement>(null);
  // A country or state picked before the island ran is kept; the state only where it is the country's.
  let picked = country;
  useChoicesMadeEarly(root, { country, state }, (name, value) => {
    if (name === 'country' && isCountry(value)) setCountry((picked = value));
    if (name === 'state' && isStateOf(picked, value)) setState(value);
  });
  useEffect(() => setHydrated(true), []);

  const { busy, onSubmit } = useFormSubmit({
    failed: TOASTS['address-save-failed'],
    method: editing ? 'PATCH' : 'POST',
    body: (values) => ({
      userId,
      name: values.name ?? '',
      country: values.country ?? '',
      state: values.state ?? '',
      city: values.city ?? '',
      address: values.address ?? '',
      zipCode: values.zipCode ?? '',
      landmark: values.landmark ?? '',
      deliveryPhone: values.deliveryPhone ?? '',
      active: values.active === 'on',
    }),
    onSuccess: () => ({ next: next ?? '/address-history' }),
  });

  return (
    <form
      ref={root}
      className="acct-form"
      method="post"
      action={editing ? `/api/v1/address/edit/${address!.id}` : `/api/v1/address/create${createQuery(next, forOrder)}`}
      onSubmit={onSubmit}
    >
      <CsrfInput token={csrf} />
      <Field id="addr-name" label="Full Name" name="name" autoComplete="name" required maxLength={100} defaultValue={address?.name} />
      <div className="acct-row">
        <Field id="addr-country" label="Country">
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
            <CountryOptions />
          </select>
        </Field>
        <Field id="addr-state" label="State or Province">
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
        </Field>
      </div>
      <div className="acct-row">
        <Field id="addr-city" label="City" name="city" autoComplete="address-level2" required maxLength={80} defaultValue={address?.city} />
        <Field
          id="addr-zip"
          label="Postcode"
          name="zipCode"
          autoComplete="postal-code"
          required={hydrated && ZIP_REQUIRED[country]}
          hint={hydrated ? (ZIP_REQUIRED[country] ? undefined : `Optional in ${COUNTRY_NAMES[country]}`) : 'Optional in Nigeria, required in South Africa'}
          maxLength={12}
          defaultValue={address?.zipCode}
        />
      </div>
      <Field id="addr-street" label="Address" name="address" autoComplete="street-address" required maxLength={200} defaultValue={address?.address} />
      <Field
        id="addr-landmark"
        label="Landmark or directions"
        name="landmark"
        hint="Optional: what the courier should look for"
        maxLength={200}
        defaultValue={address?.landmark}
      />
      <Field
        id="addr-phone"
        label="Phone for delivery"
        name="deliveryPhone"
        type="tel"
        autoComplete="tel"
        hint="Optional: the number the courier calls"
        maxLength={20}
        defaultValue={address ? address.deliveryPhone : accountPhone}
      />
      <label className="acct-check">
        <input
          type="checkbox"
          name="active"
          defaultChecked={address?.active ?? (firstAddress || (next !== null && !forOrder))}
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
