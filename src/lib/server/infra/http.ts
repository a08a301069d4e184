import type { APIContext } from 'astro';
import { z } from 'zod';
import { AppError, httpStatusOf, Invalid, TooLarge, UnsupportedMediaType } from '@/lib/domain/errors';
import { BODY_LIMITS } from '@/server/http-policy';
import { message, MESSAGES } from '@/lib/domain/messages';
import { fieldMessage } from '@/lib/domain/validation';
import { unreachableReason } from '@/lib/server/infra/db/unreachable';
import { errorBody } from './error-pages';
import type { Logger } from './log';

/** JSON response helper; every API answer goes through here. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}


/**
 * The message of an error from a bare `.parse()` (parseWith's messages already name their field):
 * the first issue's, with its field put in front when the message does not name it.
 */
function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const field = issue.path.map(String).join('.');
  return field && !issue.message.includes(field) ? `${field}: ${issue.message}` : issue.message;
}

/** The one mapping from errors to HTTP responses. Unexpected errors never leak details. */
export function errorResponse(err: unknown, requestId: string, log: Logger): Response {
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if ((err.code === 'rate_limited' || err.code === 'unavailable') && typeof err.details?.retryAfter === 'number') {
      headers['retry-after'] = String(err.details.retryAfter);
    }
    if (err.code === 'method_not_allowed' && typeof err.details?.allow === 'string') headers.allow = err.details.allow;
    return json(errorBody(err), { status: httpStatusOf[err.code], headers });
  }
  if (err instanceof z.ZodError) {
    return json({ status: false, success: false, code: 'invalid', message: zodMessage(err) }, { status: 400 });
  }
  const away = unreachableReason(err);
  if (away) {
    // Not a bug: the database is away for a moment (a failover, a restart). Clients may retry.
    log.warn('database unreachable', { reason: away });
    return json(
      { status: false, success: false, code: 'unavailable', message: MESSAGES.busy, requestId },
      { status: 503, headers: { 'retry-after': '5' } },
    );
  }
  log.error('unexpected error', { err });
  return json(
    { status: false, success: false, code: 'internal', message: MESSAGES['something-went-wrong'], requestId },
    { status: 500 },
  );
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // Issues without a message of their own get one that names the field (fieldMessage).
  const result = schema.safeParse(input, { error: fieldMessage });
  if (!result.success) throw new Invalid(result.error.issues[0]?.message ?? message('request-invalid'));
  return result.data;
}

/**
 * Reads a request body but stops at `limit` bytes (413), so a body sent without Content-Length
 * cannot fill memory; the HTTP server already refused declared sizes over the route's limit.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw new TooLarge(message('too-large'));
      }
      chunks.push(value);
    }
  } catch (err) {
    // The adapter's own ceiling (BodySizeLimitError) means the same thing.
    if (err instanceof TooLarge || (err instanceof Error && (err.name === 'BodySizeLimitError' || /body size limit/i.test(err.message)))) {
      throw new TooLarge(message('too-large'));
    }
    throw err;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** Whether the request declares a body (the methods without one are always fine). */
function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  return (length !== null && length !== '0') || request.headers.has('transfer-encoding');
}

/** Reads and validates a JSON body (at most `limit`, 64 KB by default); non-JSON content types are 415, malformed JSON 400. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, limit: number = BODY_LIMITS.json): Promise<z.output<S>> {
  const type = request.headers.get('content-type');
  if (hasBody(request) && !(type && JSON_TYPE.test(type))) throw new UnsupportedMediaType(message('json-required'));
  const text = new TextDecoder().decode(await readBodyLimited(request, limit));
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new Invalid(message('json-malformed'));
  }
  return parseWith(schema, body);
}

/** Validates the query string; repeated keys keep the last value. */
export function readQuery<S extends z.ZodType>(url: URL, schema: S): z.output<S> {
  return parseWith(schema, Object.fromEntries(url.searchParams));
}

type Handler = (ctx: APIContext) => Promise<Response> | Response;

/** Wraps an endpoint so typed errors become the API's JSON error shape. */
export function endpoint(handler: Handler): Handler {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (err) {
      return errorResponse(err, ctx.locals.requestId, ctx.locals.log);
    }
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF rule for every state-changing request (replaces Astro's origin check, which also
 * refused API clients that send neither Origin nor a body, such as a bearer-token DELETE).
 * Browsers send Origin (and Sec-Fetch-Site) on cross-site writes, so those are refused;
 * a request without them comes from a non-browser client or an old browser's own form,
 * and carries no ambient credentials an attacker could borrow (session cookies are
 * SameSite=Lax as well). Same-site means the store's public origin (Astro.locals.publicOrigin),
 * never the URL the app sees on its socket (http:// behind a TLS-terminating proxy).
 */
export function isCrossSiteWrite(request: Request, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== publicOrigin) return true;
  const site = request.headers.get('sec-fetch-site');
  return site === 'cross-site';
}

/** How a CSV the back office downloads is answered: as a file named `fileName`, never kept by a cache. */
export function csvDownload(fileName: string): ResponseInit {
  return { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${fileName}"`, 'cache-control': 'no-store' } };
}

/**
 * A response whose body is streamed from `chunks` (a CSV export of a million orders). The first
 * chunk is read before answering, so a failure to start (a bad filter, the database away) becomes
 * an HTTP error the usual way; a failure later cuts the download short.
 */
export async function streamed(chunks: AsyncIterable<string>, init: ResponseInit): Promise<Response> {
  const it = chunks[Symbol.asyncIterator]();
  const first = await it.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(first.value));
    },
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await it.return?.(undefined);
    },
  });
  return new Response(body, init);
}
