import { toastsShown } from './toast';

/**
 * The one pause between a toast and the page it leads to: long enough to read the toast's
 * start, short enough not to feel stuck. Every island (and the API client's 401) uses it.
 */
export const TOAST_THEN_NAVIGATE_MS = 1000;

/** Goes to `path` once the toast just shown has had its moment. */
export function navigateAfterToast(path: string): void {
  // The pause starts when the toast is on screen: the first toast on a page imports the toaster.
  void toastsShown().then(() => setTimeout(() => window.location.assign(path), TOAST_THEN_NAVIGATE_MS));
}
