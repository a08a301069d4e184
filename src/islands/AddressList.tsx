import { useEffect, useState } from 'react';
import { toast } from '@/lib/client/toast';
import { countryName } from '@/lib/domain/geo';
import { api } from '@/lib/client/api';
import { sendAndShow } from '@/lib/client/forms';
import CsrfInput from '@/components/CsrfInput';
import { TOASTS } from '@/lib/domain/toasts';

export interface AddressView {
  id: string;
  name: string;
  country: string;
  state: string;
  city: string;
  address: string;
  zipCode: string;
  landmark?: string;
  deliveryPhone?: string;
  active: boolean;
}

interface Props {
  userId: string;
  initial: AddressView[];
  /** The session's CSRF token for the make-default forms. */
  csrf?: string | null;
}

/** The X of an address's delete button (decorative: the button carries the label). */
const DELETE_ICON = (
  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" stroke="currentColor" strokeWidth="2">
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);

/**
 * Shipping Addresses: the list, a default checkbox per address, Edit, and delete (X) with a confirmation.
 * Without scripts: a Make default button posts the address's form, and the X opens the page's own
 * confirmation (/address-history?delete=id) whose form deletes. Hydrated, the island does both with fetch.
 */
export default function AddressList({ userId, initial, csrf }: Props) {
  const [list, setList] = useState(initial);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function reload() {
    const { ok, body } = await api(`/address/get-all/${encodeURIComponent(userId)}`);
    if (ok && body.status) setList(body.list);
    else if (body?.message) toast.error(TOASTS['addresses-fetch-failed']);
  }

  /** Optimistic: the box ticks at once and is put back if the server refuses. */
  async function makeDefault(id: string) {
    const before = list;
    setList((l) => l.map((a) => ({ ...a, active: a.id === id })));
    setBusyId(id);
    await sendAndShow(() => api(`/address/edit/${id}`, { method: 'PATCH', body: { active: true } }), {
      failed: TOASTS['address-default-failed'],
      toastId: 'address-default',
      onSuccess: () => ({ toast: 'Default address updated!' }),
      onFailure: () => setList(before),
    });
    setBusyId(null);
  }

  async function remove(id: string) {
    if (!window.confirm('Are you sure you want to delete this address?')) return;
    setBusyId(id);
    const sent = await sendAndShow(() => api(`/address/delete/${id}`, { method: 'DELETE' }), {
      failed: TOASTS['address-delete-failed'],
      onSuccess: () => ({}),
    });
    if (sent === 'succeeded') await reload();
    setBusyId(null);
  }

  if (list.length === 0) return <p className="addr-empty">No addresses found. Add your first address!</p>;
  return (
    <ul className="addr-list">
      {list.map((a) => (
        <li key={a.id} className={a.active ? 'addr-card addr-default' : 'addr-card'} aria-busy={busyId === a.id}>
          <div className="addr-text">
            <p className="addr-name">
              {a.name} {a.active && <span className="addr-badge">Default</span>}
            </p>
            <p>{a.address}</p>
            <p>
              {a.city}, {a.state} {a.zipCode}
            </p>
            <p>{countryName(a.country)}</p>
          </div>
          <div className="addr-actions">
            <form
              className="addr-make-default"
              method="post"
              action={`/api/v1/address/edit/${a.id}`}
              onSubmit={(e) => {
                e.preventDefault();
                if (!a.active) void makeDefault(a.id);
              }}
            >
              <CsrfInput token={csrf} />
              <input type="hidden" name="active" value="on" />
              <label className="acct-check">
                <input
                  type="checkbox"
                  checked={a.active}
                  // The default stays ticked: another address becomes default by ticking it.
                  disabled={(busyId !== null || !hydrated) && !a.active}
                  aria-readonly={a.active}
                  onChange={() => {
                    if (!a.active) void makeDefault(a.id);
                  }}
                  aria-label={`Default address: ${a.name}, ${a.address}`}
                />
                <span>Default</span>
              </label>
              {!hydrated && !a.active && (
                <button type="submit" className="acct-linkbtn" aria-label={`Make default: ${a.address}`}>
                  Make default
                </button>
              )}
            </form>
            <a className="btn btn-outline addr-edit" href={`/edit-address/${a.id}`} aria-label={`Edit address: ${a.address}`}>
              Edit
            </a>
            <form
              method="get"
              action="/address-history"
              onSubmit={(e) => {
                e.preventDefault();
                void remove(a.id);
              }}
            >
              <input type="hidden" name="delete" value={a.id} />
              <button type="submit" className="addr-delete" disabled={busyId !== null} aria-label={`Delete address: ${a.address}`}>
                {DELETE_ICON}
              </button>
            </form>
          </div>
        </li>
      ))}
    </ul>
  );
}
