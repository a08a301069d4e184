/**
 * The React side of sending forms (form-send.ts holds the part without a framework): the
 * `useFormSubmit` hook with its busy flag, and the small helpers islands' forms share.
 */
import { useEffect, useState, type FormEvent, type RefObject } from 'react';
import { submitForm, type FormSubmitOptions } from './form-send';

export { formValues, sendAndShow, type FormSubmitOptions, type FormSuccess, type FormValues, type Outcome, type Sent } from './form-send';

/** The island side of a real form: `<form action=… onSubmit={onSubmit}>` and `disabled={busy}`. */
export function useFormSubmit<B = any>(options: FormSubmitOptions<B>) {
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    await submitForm(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter, options, setBusy);
  }

  return { busy, onSubmit };
}

/** An input that takes only digits (a one-time code): anything else typed or pasted is dropped. */
export function keepDigits(e: FormEvent<HTMLInputElement>): void {
  const input = e.currentTarget;
  const digits = input.value.replace(/\D/g, '');
  if (digits !== input.value) input.value = input.maxLength > 0 ? digits.slice(0, input.maxLength) : digits;
}

/**
 * A choice made before the island hydrated (a radio ticked or an option picked on a slow phone)
 * lives only in the page: React leaves the control alone while hydrating, but its first re-render
 * puts the island's own state back and the choice is lost. Once hydrated, this hands each named
 * group's ticked value (or named select's value) inside `root` to `take`, when it differs from what
 * the island rendered.
 */
export function useChoicesMadeEarly(root: RefObject<HTMLElement | null>, rendered: Record<string, string | null>, take: (name: string, value: string) => void): void {
  useEffect(() => {
    for (const [name, value] of Object.entries(rendered)) {
      const ticked = root.current?.querySelector<HTMLInputElement | HTMLSelectElement>(`input[type="radio"][name="${name}"]:checked, select[name="${name}"]`)?.value;
      if (ticked !== undefined && ticked !== value) take(name, ticked);
    }
    // Once, right after hydration: later changes go through the inputs' onChange.
  }, []);
}

/**
 * For an island hydrated on reach (client:reach): once its handlers are in place and the choices
 * made early are taken, a form the shopper sent before then is sent again, now through the island.
 * Call it after useChoicesMadeEarly, so that its effect runs after that one.
 */
export function useHeldSendsReplayed(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    root.current?.dispatchEvent(new Event('island-ready', { bubbles: true }));
  }, []);
}
