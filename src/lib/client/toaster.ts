import { $toasts, type Toast } from './stores';

/**
 * The store's one toaster, top right: it shows the toasts raised through toast.ts. Plain DOM, so
 * every page has it for a few hundred bytes (the chrome script mounts it), React or not. Each toast
 * is a status message, read out politely; its region is made only when the first toast comes.
 */
export function mountToaster(): void {
  let region: HTMLElement | null = null;
  $toasts.subscribe((toasts) => {
    if (!region) {
      if (toasts.length === 0) return;
      region = document.createElement('div');
      region.className = 'toaster';
      document.body.append(region);
    }
    const shown = new Map<string, HTMLElement>();
    for (const el of region.querySelectorAll<HTMLElement>('[data-toast-id]')) shown.set(el.dataset.toastId!, el);
    for (const toast of toasts) {
      const el = shown.get(toast.id) ?? toastElement(toast);
      shown.delete(toast.id);
      fill(el, toast);
      if (!el.isConnected) region.append(el);
    }
    for (const gone of shown.values()) gone.remove();
  });
}

function toastElement(toast: Toast): HTMLElement {
  const el = document.createElement('div');
  el.dataset.toastId = toast.id;
  el.setAttribute('role', 'status');
  el.setAttribute('aria-live', 'polite');
  const icon = document.createElement('span');
  icon.className = 'ml-toast-icon';
  icon.setAttribute('aria-hidden', 'true');
  el.append(icon, document.createElement('span'));
  return el;
}

function fill(el: HTMLElement, toast: Toast): void {
  el.className = `ml-toast ml-toast-${toast.kind}`;
  el.firstElementChild!.textContent = toast.kind === 'success' ? '✓' : '!';
  if (el.lastElementChild!.textContent !== toast.text) el.lastElementChild!.textContent = toast.text;
}
