import type { APIContext } from 'astro';
import { z } from 'zod';
import { AppError, Invalid, Unauthorized } from '@/lib/domain/errors';
import { CSRF_FIELD } from '@/lib/domain/forms';
import { message, messageRef, type MessageCode } from '@/lib/domain/messages';
import { localRedirectPath } from '@/lib/domain/redirects';
import { errorResponse, json, parseWith, readJson } from './http';

/**
 * Account forms are real HTML forms. With scripts, islands send JSON and show toasts; before
 * hydration (or on browsers without scripts) the browser posts the form itself, and these helpers
 * answer with a redirect instead of JSON: to the next page on success, back to the form with
 * `?error=` on failure. Every page shows `error` and `notice` from the query string
 * (src/components/FormMessages.astro). Forms posted with the session cookie carry its CSRF token,
 * checked by the middleware (src/lib/server/infra/csrf.ts) and dropped from the input here.
 */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

export function isFormPost(request: Request): boolean {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  return FORM_TYPES.some((t) => type.startsWith(t));
}

/**
 * A browser submitting a form itself asks for a page (its Accept names text/html); a script or
 * API client posting form data (fetch's default Accept is * / *) gets JSON.
 */
export function wantsPage(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return isFormPost(request) && accept.includes('text/html') && !accept.includes('application/json');
}

/** Reads a JSON body or a posted form (a ticked checkbox, 'on', becomes true; the CSRF field is dropped). */
export async function readInput<S extends z.ZodType>(request: Request, schema: S, limit?: number): Promise<z.output<S>> {
  if (!isFormPost(request)) {
    // Islands that send a form as JSON may include its CSRF field: it is not part of the input.
    const body = await readJson(request, z.unknown(), limit);
    if (body && typeof body === 'object' && !Array.isArray(body)) delete (body as Record<string, unknown>)[CSRF_FIELD];
    return parseWith(schema, body);
  }
  // A malformed multipart body (no boundary, cut short) is the sender's mistake, not ours.
  const form = await request.formData().catch((err: unknown) => {
    throw err instanceof TypeError ? new Invalid(message('form-unreadable')) : err;
  });
  const values: Record<string, unknown> = {};
  for (const [key, value] of form) {
    if (typeof value === 'string' && key !== CSRF_FIELD) values[key] = value === 'on' ? true : value;
  }
  return parseWith(schema, values);
}

/** `path` (a local path, else home) with the outcome's parameters in place of any earlier ones, and its fragment. */
function withParams(path: string, params: Record<string, string | undefined>, origin: string): string {
  const url = new URL(localRedirectPath(path, origin) ?? '/', origin);
  url.searchParams.delete('error');
  url.searchParams.delete('notice');
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  // The fragment stays: a form may come back to the field to fill in next.
  return localRedirectPath(url.pathname + url.search + url.hash, origin) ?? '/';
}

/**
 * The form page the post came from, for sending errors back: the action's `?back=` (a local
 * path; for browsers that send no Referer), else a Referer on the store's public origin, else home.
 */
export function backPath(ctx: APIContext): string {
  const back = localRedirectPath(ctx.url.searchParams.get('back'), ctx.locals.publicOrigin);
  if (back) return back;
  const referer = ctx.request.headers.get('referer');
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === ctx.locals.publicOrigin) return localRedirectPath(url.pathname + url.search, ctx.locals.publicOrigin) ?? '/';
    } catch {
      // ignore a malformed referer
    }
  }
  return '/';
}

const GENERIC_REASON = message('something-went-wrong');

export interface FormResult {
  body: Record<string, unknown> & { message: string };
  status?: number;
  /** Where a plain form post goes on success (with ?notice=); by default back to the page it came from. */
  next?: string;
  /** Or exactly this URL, with no notice (the payment provider's page). */
  location?: string;
  /** Extra query parameters for the next page (for example the e-mail waiting for its code). */
  nextParams?: Record<string, string>;
}

export interface FormOptions {
  /** The text a failed plain form post shows, from the error's message (the island's toast text). */
  failure?: (message: string) => string;
  /**
   * A signed-out visitor's plain form post goes to /login with this message (a code of messages.ts)
   * and comes back to the page after signing in, instead of back to the page with the error.
   */
  signInFirst?: MessageCode;
}

/**
 * The link form of a message the server wrote (see src/lib/domain/messages.ts). A text missing
 * there is a bug: the page then shows a generic message, never the text itself.
 */
function linkMessage(ctx: APIContext, text: string, fallback: string): string {
  const ref = messageRef(text);
  if (ref) return ref;
  ctx.locals.log.warn('form message without a code (add it to src/lib/domain/messages.ts)', { path: ctx.url.pathname, text });
  return fallback;
}

/**
 * A cart's notice (its discount code just came off: 'Spend at least ₦50,000 to use this code.') for
 * the page a plain form post goes to, beside the form's own notice; nothing for other texts.
 */
export function cartNoticeParams(cart: { notice?: string | undefined }): Record<string, string> {
  const ref = cart.notice ? messageRef(cart.notice) : null;
  return ref ? { error: ref } : {};
}

const redirect = (location: string) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

/**
 * Like endpoint(), but answers plain form posts with redirects (see above). A handler may answer a
 * Response of its own instead (a file to download), which goes out as it is to forms and scripts alike.
 */
export function formEndpoint(handler: (ctx: APIContext) => Promise<FormResult | Response>, options: FormOptions = {}) {
  return async (ctx: APIContext): Promise<Response> => {
    const page = wantsPage(ctx.request);
    try {
      const result = await handler(ctx);
      if (result instanceof Response) return result;
      if (!page) return json(result.body, { status: result.status ?? 200 });
      if (result.location) return redirect(result.location);
      const notice = linkMessage(ctx, result.body.message, 'done');
      return redirect(withParams(result.next ?? backPath(ctx), { ...result.nextParams, notice }, ctx.locals.publicOrigin));
    } catch (err) {
      if (!page) return errorResponse(err, ctx.locals.requestId, ctx.locals.log);
      if (err instanceof Unauthorized && options.signInFirst) {
        return redirect(withParams('/login', { next: backPath(ctx), notice: options.signInFirst }, ctx.locals.publicOrigin));
      }
      const known = err instanceof AppError || err instanceof z.ZodError;
      if (!known) ctx.locals.log.error('unexpected error', { err });
      const reason = err instanceof AppError ? err.message : GENERIC_REASON;
      const text = options.failure ? options.failure(reason) : reason;
      // A reason with a part no link may carry (a product's name) still gets the form's own failure text.
      const fallback = (options.failure && messageRef(options.failure(GENERIC_REASON))) || 'something-went-wrong';
      return redirect(withParams(backPath(ctx), { error: linkMessage(ctx, text, fallback) }, ctx.locals.publicOrigin));
    }
  };
}
