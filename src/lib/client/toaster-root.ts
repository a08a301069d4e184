/**
 * The store's one toaster: react-hot-toast's toasts (its store, ids, timers and pause on hover),
 * top right, 5000 ms, in a React root of its own made when this module is first imported.
 * toast.ts imports it only when a page raises its first toast, so a page without React (home,
 * About, Privacy, Contact) downloads none until it has something to say, and a page with islands
 * adds only the library. The library's headless half with our own few elements (global.css
 * `.ml-toast`): its styled <Toaster> (CSS-in-JS and animated icons) costs 2.5 KB more on the
 * wire, which the purchase path's 200 KB budget has not got. Each message is a polite status
 * (the library's role="status" and aria-live).
 */
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { resolveValue, toast, useToaster } from 'react-hot-toast/headless';

/** Toasts close by themselves after 5000 ms. */
export const TOAST_DURATION_MS = 5000;

function Toaster() {
  const { toasts, handlers } = useToaster({ duration: TOAST_DURATION_MS });
  return h(
    'div',
    { className: 'toaster', onMouseEnter: handlers.startPause, onMouseLeave: handlers.endPause },
    toasts
      .filter((t) => t.visible)
      .map((t) =>
        h(
          'div',
          { key: t.id, className: `ml-toast ml-toast-${t.type}` },
          h('span', { className: 'ml-toast-icon', 'aria-hidden': 'true' }, t.type === 'error' ? '!' : '✓'),
          h('span', t.ariaProps, resolveValue(t.message, t)),
          actions.has(t.id) &&
            h(
              'button',
              {
                type: 'button',
                className: 'ml-toast-action',
                onClick: () => {
                  const action = actions.get(t.id);
                  toast.dismiss(t.id);
                  action?.run();
                },
              },
              actions.get(t.id)!.label,
            ),
        ),
      ),
  );
}

const host = document.createElement('div');
document.body.append(host);
createRoot(host).render(h(Toaster));

/** The action of each toast that has one, by the toast's id. */
const actions = new Map<string, { label: string; run: () => void }>();

/** Shows a toast (with its action, if any); one with the same `id` is replaced in place instead of stacking another. */
export function show(kind: 'success' | 'error', text: string, id?: string, action?: { label: string; run: () => void }): void {
  const shown = toast[kind](text, id === undefined ? undefined : { id });
  if (action) actions.set(shown, action);
  else actions.delete(shown);
}
