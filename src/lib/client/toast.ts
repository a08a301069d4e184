/**
 * The one way to show a toast, from islands and plain scripts alike: `toast.success(text)` or
 * `toast.error(text)`. The toaster (react-hot-toast, toaster-root.tsx) is imported with the first
 * toast a page raises, so no page pays for React or the library before then; toasts raised while
 * it loads are shown in the order they were raised.
 *
 * `id` names the action a toast is about (a form's action, "place-order"): a later toast with the
 * same id replaces it, so a success clears an earlier error about the same action and a repeated
 * error does not stack.
 */
type Toaster = typeof import('./toaster-root');

let toaster: Promise<Toaster> | undefined;

/** A toast's one action: a button after its text ("Sign in"). */
export interface ToastAction {
  label: string;
  run: () => void;
}

function raise(kind: 'success' | 'error', text: string, options: { id?: string; action?: ToastAction } = {}): void {
  toaster ??= import('./toaster-root');
  toaster.then(
    (t) => t.show(kind, text, options.id, options.action),
    (err: unknown) => {
      // Offline or a stale deployment: the next toast tries again.
      toaster = undefined;
      console.error('Toaster unavailable', err);
    },
  );
}

export const toast = {
  success: (text: string, options?: { id?: string; action?: ToastAction }) => raise('success', text, options),
  error: (text: string, options?: { id?: string; action?: ToastAction }) => raise('error', text, options),
};

/** Settles once every toast raised so far is on screen (at once when none was): a page leaves only after. */
export function toastsShown(): Promise<void> {
  return toaster ? toaster.then(() => undefined, () => undefined) : Promise.resolve();
}
