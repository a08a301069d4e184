/**
 * A form sent while the phone is offline (ADR 0030): the page and everything typed stay as they
 * are, and a notice says so, with a Retry button. A form that is safe to send twice (marked
 * `data-offline-resend`: the newsletter, the profile) is sent again by itself when the phone is
 * back online; a form that moves money or places an order never is: the shopper retries, and its
 * idempotency key keeps a retry from doubling anything.
 */
import { TOASTS } from '@/lib/domain/toasts';
import { NetworkError } from './api';

/** A request that failed because the phone has no network (not a server that did not answer). */
export function failedOffline(err: unknown): boolean {
  return err instanceof NetworkError && navigator.onLine === false;
}

/** Whether a form may be sent again by itself once the phone is online. */
export function resendsByItself(form: HTMLFormElement): boolean {
  return form.dataset.offlineResend !== undefined;
}

let waiting: (() => void) | null = null;

/**
 * Shows the offline notice for one send (replacing an earlier one): `retry` sends it again, on the
 * Retry button, and by itself when the network is back if `resend`.
 */
export function holdOffline({ retry, resend }: { retry: () => void; resend: boolean }): void {
  dismissOffline();
  const note = document.createElement('div');
  note.className = 'offline-note';
  note.setAttribute('role', 'status');
  const text = document.createElement('p');
  text.textContent = resend ? TOASTS['offline-will-send'] : TOASTS['offline-not-sent'];
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn';
  button.textContent = TOASTS['offline-retry'];
  note.append(text, button);
  document.body.append(note);
  const send = () => {
    dismissOffline();
    retry();
  };
  button.addEventListener('click', send);
  if (resend) window.addEventListener('online', send, { once: true });
  waiting = () => {
    window.removeEventListener('online', send);
    note.remove();
  };
}

/** Takes the notice down (a send that went through, or a newer one). */
export function dismissOffline(): void {
  waiting?.();
  waiting = null;
}
