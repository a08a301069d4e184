/** The payment reference is held in session storage, for the return from the provider. */
const REFERENCE_KEY = 'ml:paymentReference';

export function readReference(): string | null {
  try {
    return sessionStorage.getItem(REFERENCE_KEY);
  } catch {
    return null;
  }
}

export function writeReference(ref: string | null): void {
  try {
    if (ref) sessionStorage.setItem(REFERENCE_KEY, ref);
    else sessionStorage.removeItem(REFERENCE_KEY);
  } catch {
    // private mode without storage: the return URL still carries the reference
  }
}

/** A fresh attempt key once the server has answered the last one (a new attempt may ask for other choices). */
export function newAttemptKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
