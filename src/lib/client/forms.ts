/**
 * The one way an island sends a form: the real <form> (its action, or the pressed button's
 * formaction) with the values read from the form element itself, so what is sent is what the
 * page shows even before hydration; a busy flag; the server's message as the toast; then, on
 * success, the next page after the one shared pause (navigate.ts).
 */
import { useEffect, useState, type FormEvent, type RefObject } from 'react';
import toast from 'react-hot-toast';
import { api, type ApiResult } from './api';
import { navigateAfterToast } from './navigate';

/** A form's fields as the browser would post them (with the pressed button's name and value). */
export type FormValues = Record<string, string>;

/** What a success leads to. */
export interface FormSuccess {
  /** The success toast: the server's message unless given; null shows none. */
  toast?: string | null;
  /** The page to go to: after the toast's pause, or at once when there is no toast. */
  next?: string;
}

/** How the answer becomes toasts and a next page (shared by forms and the few calls without one). */
export interface Outcome<B = any> {
  /** The toast when the server refuses without a message of its own. */
  failed: string;
  /** The toast when no answer came (default: `failed`). */
  unreachable?: string | ((err: unknown) => string);
  /** Whether the answer is a success (default: a 2xx whose body says `status: true`). */
  succeeded?: (result: ApiResult<B>) => boolean;
  /** After a success: side effects; returns the toast and the next page. */
  onSuccess?: (body: B) => FormSuccess | void;
  /** A refusal's toast: a text, null for none, undefined for the default (the server's message, else `failed`). */
  refusal?: (result: ApiResult<B>) => string | null | undefined;
  /** Refused or unanswered: undo what was shown ahead of the answer. */
  onFailure?: () => void;
}

export type Sent = 'navigating' | 'succeeded' | 'failed';

const defaultSucceeded = (r: ApiResult) => r.ok && Boolean(r.body?.status);

/** Sends one request and shows its outcome; 'navigating' means the page is about to change. */
export async function sendAndShow<B = any>(send: () => Promise<ApiResult<B>>, outcome: Outcome<B>): Promise<Sent> {
  let result: ApiResult<B>;
  try {
    result = await send();
    if ((outcome.succeeded ?? defaultSucceeded)(result)) {
      const { toast: text = messageOf(result), next } = outcome.onSuccess?.(result.body) ?? {};
      if (text) toast.success(text);
      if (next === undefined) return 'succeeded';
      if (text) navigateAfterToast(next);
      else window.location.assign(next);
      return 'navigating';
    }
  } catch (err) {
    outcome.onFailure?.();
    const text = outcome.unreachable ?? outcome.failed;
    toast.error(typeof text === 'function' ? text(err) : text);
    return 'failed';
  }
  outcome.onFailure?.();
  const refusal = outcome.refusal?.(result);
  const text = refusal === undefined ? messageOf(result) || outcome.failed : refusal;
  if (text) toast.error(text);
  return 'failed';
}

/** The server's own message, when its answer has one. */
const messageOf = (result: ApiResult): string | undefined => {
  const message: unknown = result.body?.message;
  return typeof message === 'string' ? message : undefined;
};

export interface FormSubmitOptions<B = any> extends Omit<Outcome<B>, 'onSuccess' | 'refusal'> {
  /** Checks before sending: a returned text is the error toast, and nothing is sent. */
  check?: (values: FormValues, form: HTMLFormElement) => string | null | undefined;
  /** The JSON API's method for this form (it may PATCH or PUT what the plain form POSTs). Default: POST. */
  method?: string;
  /** Where to send, when the JSON API differs from the plain form's action. */
  path?: string;
  /** The request body: the form's values by default; a FormData is sent as multipart. */
  body?: (values: FormValues, form: HTMLFormElement) => unknown;
  /** After a success: side effects; returns the toast and the next page. */
  onSuccess?: (body: B, values: FormValues, form: HTMLFormElement) => FormSuccess | void;
  /** A refusal's toast: a text, null for none, undefined for the default (the server's message, else `failed`). */
  refusal?: (result: ApiResult<B>, values: FormValues) => string | null | undefined;
  /** false where a 401 is an answer of the form's own (signing in), not an expired session. */
  handle401?: boolean;
}

/** The form's fields, read from the element (and the pressed button) as the browser would post them. */
export function formValues(form: HTMLFormElement, submitter?: HTMLElement | null): FormValues {
  const values: FormValues = {};
  for (const [key, value] of new FormData(form, submitter ?? undefined)) if (typeof value === 'string') values[key] = value;
  return values;
}

/** The island side of a real form: `<form action=… onSubmit={onSubmit}>` and `disabled={busy}`. */
export function useFormSubmit<B = any>(options: FormSubmitOptions<B>) {
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const form = e.currentTarget;
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const values = formValues(form, submitter);
    const problem = options.check?.(values, form);
    if (problem) return void toast.error(problem);
    const path = options.path ?? submitter?.getAttribute('formaction') ?? form.getAttribute('action') ?? '';
    const body = options.body ? options.body(values, form) : values;
    setBusy(true);
    const sent = await sendAndShow<B>(
      () =>
        api<B>(path, {
          method: options.method ?? 'POST',
          ...(body instanceof FormData ? { form: body } : { body }),
          handle401: options.handle401,
        }),
      {
        ...options,
        onSuccess: options.onSuccess && ((b) => options.onSuccess!(b, values, form)),
        refusal: options.refusal && ((r) => options.refusal!(r, values)),
      },
    );
    // A page about to change keeps its button busy, so it cannot be sent twice.
    if (sent !== 'navigating') setBusy(false);
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
 * A choice made before the island hydrated (a radio ticked on a slow phone) lives only in the
 * page: React leaves the ticked input alone while hydrating, but its first re-render puts the
 * island's own state back and the choice is lost. Once hydrated, this hands each named group's
 * ticked value inside `root` to `take`, when it differs from what the island rendered.
 */
export function useChoicesMadeEarly(root: RefObject<HTMLElement | null>, rendered: Record<string, string | null>, take: (name: string, value: string) => void): void {
  useEffect(() => {
    for (const [name, value] of Object.entries(rendered)) {
      const ticked = root.current?.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"]:checked`)?.value;
      if (ticked !== undefined && ticked !== value) take(name, ticked);
    }
    // Once, right after hydration: later changes go through the inputs' onChange.
  }, []);
}
