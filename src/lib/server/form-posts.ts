import type { APIContext } from 'astro';
import { z } from 'zod';
import { AppError } from '../domain/errors';
import { errorResponse, json, parseWith, readJson } from './http';

/**
 * Account forms are real HTML forms. With scripts, islands send JSON and show toasts; before
 * hydration (or on browsers without scripts) the browser posts the form itself, and these helpers
 * answer with a redirect instead of JSON: to the next page on success, back to the form with
 * `?error=` on failure. The account pages show `error` and `notice` from the query string.
 */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

export function isFormPost(request: Request): boolean {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  return FORM_TYPES.some((t) => type.startsWith(t));
}

function wantsPage(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return isFormPost(request) && !accept.includes('application/json');
}

/** Reads a JSON body or a posted form (a ticked checkbox, 'on', becomes true). */
export async function readInput<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if (!isFormPost(request)) return readJson(request, schema);
  const form = await request.formData();
  const values: Record<string, unknown> = {};
  for (const [key, value] of form) if (typeof value === 'string') values[key] = value === 'on' ? true : value;
  return parseWith(schema, values);
}

function withParams(path: string, params: Record<string, string | undefined>, base: string): string {
  const url = new URL(path, base);
  url.searchParams.delete('error');
  url.searchParams.delete('notice');
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  return url.pathname + url.search;
}

/** The form page the post came from (same origin only), for sending errors back. */
function backPath(ctx: APIContext): string {
  const referer = ctx.request.headers.get('referer');
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === ctx.url.origin) return url.pathname + url.search;
    } catch {
      // ignore a malformed referer
    }
  }
  return '/';
}

export interface FormResult {
  body: Record<string, unknown> & { message: string };
  status?: number;
  /** Where a plain form post goes on success. */
  next: string;
  /** Extra query parameters for the next page (for example the e-mail waiting for its code). */
  nextParams?: Record<string, string>;
}

/** Like endpoint(), but answers plain form posts with redirects (see above). */
export function formEndpoint(handler: (ctx: APIContext) => Promise<FormResult>) {
  return async (ctx: APIContext): Promise<Response> => {
    const page = wantsPage(ctx.request);
    try {
      const result = await handler(ctx);
      if (!page) return json(result.body, { status: result.status ?? 200 });
      const location = withParams(result.next, { ...result.nextParams, notice: result.body.message }, ctx.url.origin);
      return new Response(null, { status: 303, headers: { location } });
    } catch (err) {
      if (!page) return errorResponse(err, ctx.locals.requestId, ctx.locals.log);
      const known = err instanceof AppError || err instanceof z.ZodError;
      if (!known) ctx.locals.log.error('unexpected error', { err });
      const message = err instanceof AppError ? err.message : 'Something went wrong. Please try again.';
      const location = withParams(backPath(ctx), { error: message }, ctx.url.origin);
      return new Response(null, { status: 303, headers: { location } });
    }
  };
}
