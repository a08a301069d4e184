import { CSRF_FIELD } from '@/lib/domain/forms';

/** The islands' twin of CsrfField.astro: the session's CSRF token as a hidden input (nothing without one). */
export default function CsrfInput({ token }: { token?: string | null | undefined }) {
  return token ? <input type="hidden" name={CSRF_FIELD} value={token} /> : null;
}
