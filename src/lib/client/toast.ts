/**
 * The one way to show a toast, from islands and plain scripts alike: `toast.success(text)` or
 * `toast.error(text)`. No framework: the toasts live in a store (stores.ts) and the toaster
 * (toaster.ts, mounted by the layout's chrome script on every page) shows them, so a page
 * without React has toasts too.
 */
import { toastDismissed, toastRaised, type Toast } from './stores';

/** Spec: toasts close by themselves after 5000 ms. */
export const TOAST_DURATION_MS = 5000;

let raisedCount = 0;
const closing = new Map<string, ReturnType<typeof setTimeout>>();

/** `id` names a toast that a later one replaces instead of stacking (e.g. the cart's notice). */
function raise(kind: Toast['kind'], text: string, options: { id?: string } = {}): string {
  const id = options.id ?? `toast-${++raisedCount}`;
  clearTimeout(closing.get(id));
  toastRaised({ id, kind, text });
  closing.set(
    id,
    setTimeout(() => {
      closing.delete(id);
      toastDismissed(id);
    }, TOAST_DURATION_MS),
  );
  return id;
}

export const toast = {
  success: (text: string, options?: { id?: string }) => raise('success', text, options),
  error: (text: string, options?: { id?: string }) => raise('error', text, options),
};
