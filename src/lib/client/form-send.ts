/**
 * The one way a page sends a form, with or without React: the real <form> (its action, or the
 * pressed button's formaction) with the values read from the form element itself, so what is sent
 * is what the page shows even before a script ran; the server's message as the toast; then, on
 * success, the next page after the one shared pause (navigate.ts). Islands use it through
 * `useFormSubmit` (forms.ts), plain scripts through `enhanceForm`.
 */
import { api, type ApiResult } from './api';
import { failedOffline, holdOffline, resendsByItself } from './offline-forms';
import { navigateAfterToast } from './navigate';
import { toast, type ToastAction } from './toast';

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
  /** The action its toasts are about: each replaces the last one of the same action (toast.ts). */
  toastId?: string;
  /**
   * The phone is offline: instead of the failure toast, what to do (offline-forms.ts holdOffline:
   * a notice with Retry, and a resend when back online for forms safe to send twice).
   */
  whenOffline?: () => void;
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
      if (text) toast.success(text, { id: outcome.toastId });
      if (next === undefined) return 'succeeded';
      if (text) navigateAfterToast(next);
      else window.location.assign(next);
      return 'navigating';
    }
  } catch (err) {
    outcome.onFailure?.();
    if (outcome.whenOffline && failedOffline(err)) {
      outcome.whenOffline();
      return 'failed';
    }
    const text = outcome.unreachable ?? outcome.failed;
    toast.error(typeof text === 'function' ? text(err) : text, { id: outcome.toastId });
    return 'failed';
  }
  outcome.onFailure?.();
  const refusal = outcome.refusal?.(result);
  const text = refusal === undefined ? messageOf(result) || outcome.failed : refusal;
  if (text) toast.error(text, { id: outcome.toastId });
  return 'failed';
}

/**
 * A form's toasts are about its action (the address it posts to, without the query): "Please
 * select a size" and then "Product added to cart successfully!" are one toast, replaced.
 */
export function actionToastId(action: string): string {
  return `form:${action.split(/[?#]/, 1)[0]}`;
}

/** The server's own message, when its answer has one. */
const messageOf = (result: ApiResult): string | undefined => {
  const message: unknown = result.body?.message;
  return typeof message === 'string' ? message : undefined;
};

export interface FormSubmitOptions<B = any> extends Omit<Outcome<B>, 'onSuccess' | 'refusal'> {
  /** Checks before sending: a returned text is the error toast, and nothing is sent. */
  check?: (values: FormValues, form: HTMLFormElement) => string | { text: string; action: ToastAction } | null | undefined;
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

/**
 * Sends `form` as pressed by `submitter` through the JSON API and shows the outcome; `busy` is
 * told when sending starts and ends ('navigating' keeps it busy: the page is about to change).
 */
export async function submitForm<B = any>(form: HTMLFormElement, submitter: HTMLElement | null | undefined, options: FormSubmitOptions<B>, busy: (on: boolean) => void): Promise<Sent | 'checked'> {
  const values = formValues(form, submitter);
  const action = submitter?.getAttribute('formaction') ?? form.getAttribute('action') ?? '';
  const toastId = options.toastId ?? actionToastId(action);
  const problem = options.check?.(values, form);
  if (problem) {
    if (typeof problem === 'string') toast.error(problem, { id: toastId });
    else toast.error(problem.text, { id: toastId, action: problem.action });
    return 'checked';
  }
  const path = options.path ?? action;
  const body = options.body ? options.body(values, form) : values;
  busy(true);
  const sent = await sendAndShow<B>(
    () =>
      api<B>(path, {
        method: options.method ?? 'POST',
        ...(body instanceof FormData ? { form: body } : { body }),
        handle401: options.handle401,
      }),
    {
      ...options,
      toastId,
      whenOffline: () =>
        holdOffline({
          // Sent again as the shopper would send it: the same button, the form's own submit handler.
          retry: () => form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined),
          resend: resendsByItself(form),
        }),
      onSuccess: options.onSuccess && ((b) => options.onSuccess!(b, values, form)),
      refusal: options.refusal && ((r) => options.refusal!(r, values)),
    },
  );
  // A page about to change keeps its button busy, so it cannot be sent twice.
  if (sent !== 'navigating') busy(false);
  return sent;
}

/**
 * The plain-script side of a real form (no React on the page): sends it in place on submit, its
 * submit buttons disabled while busy. Returns at once; without scripts the form posts as it is.
 */
export function enhanceForm<B = any>(form: HTMLFormElement, options: FormSubmitOptions<B>): void {
  let busy = false;
  const setBusy = (on: boolean) => {
    busy = on;
    for (const button of form.querySelectorAll<HTMLButtonElement>('button[type="submit"], button:not([type])')) button.disabled = on;
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!busy) void submitForm(form, e.submitter, options, setBusy);
  });
}
