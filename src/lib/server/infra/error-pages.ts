import { STORE_NAME } from '@/lib/domain/brand';
import { AppError, Forbidden, httpStatusOf, NotFound, TooLarge } from '@/lib/domain/errors';
import { escapeHtml } from '@/lib/domain/html';
import { message } from '@/lib/domain/messages';

/**
 * The store's small answers built outside Astro's pages: by the HTTP server (a body too large),
 * the middleware (a refused form post, the database away) and the back office's guard. Each is a
 * plain page that needs nothing (no layout, no database, no scripts) for a browser, and the
 * API's JSON error shape for API clients. Never cached.
 *
 * They are plain data (status, headers, body) so that the HTTP server, which writes to Node's
 * response, and Astro code, which returns a Response (toResponse), build them the same way.
 */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Whether a request asks for a page (a browser's Accept names text/html) rather than JSON. */
export function asksForPage(accept: string | null | undefined): boolean {
  return (accept ?? '').includes('text/html');
}

/** The API's JSON error body for a typed error: errorResponse (./http.ts) answers with it too. */
export function errorBody(err: AppError): Record<string, unknown> {
  return { status: false, success: false, code: err.code, message: err.message, ...err.details };
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
// The store's ivory and ink (--ivory, --ink in src/styles/tokens.css) as hex: these pages load no stylesheet, so CSS variables cannot work.
const PAGE_STYLE = 'font-family:Georgia,serif;background:#faf7f2;color:#16130e;padding:48px 20px;text-align:center';
const LINK_STYLE = 'color:#16130e';

interface PageContent {
  title: string;
  heading?: string;
  text: string;
  link: { href: string; label: string };
}

function page({ title, heading, text, link }: PageContent): string {
  return (
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(title)}</title><body style="${PAGE_STYLE}">` +
    (heading ? `<h1>${escapeHtml(heading)}</h1>` : '') +
    `<p>${escapeHtml(text)}</p><p><a href="${escapeHtml(link.href)}" style="${LINK_STYLE}">${escapeHtml(link.label)}</a></p></body></html>`
  );
}

const HOME_LINK = { href: '/', label: STORE_NAME };
const NEVER_CACHED = { 'cache-control': 'no-store' };

function pageAnswer(status: number, content: PageContent, headers: Record<string, string> = {}): PlainAnswer {
  return { status, headers: { 'content-type': HTML, ...NEVER_CACHED, ...headers }, body: page(content) };
}

function jsonAnswer(err: AppError): PlainAnswer {
  return { status: httpStatusOf[err.code], headers: { 'content-type': JSON_TYPE, ...NEVER_CACHED }, body: JSON.stringify(errorBody(err)) };
}

/** A refusal: a page with a way back for a browser, else the typed error as JSON. */
function refusal(err: AppError, accept: string | null | undefined, content: PageContent): PlainAnswer {
  return asksForPage(accept) ? pageAnswer(httpStatusOf[err.code], content) : jsonAnswer(err);
}

/** 403: a cookie-authenticated form post without a same-site Origin and without the form's token. */
export function formExpiredAnswer(accept: string | null | undefined): PlainAnswer {
  const text = message('form-expired');
  return refusal(new Forbidden(text), accept, { title: STORE_NAME, text, link: HOME_LINK });
}

/** 413: a body declared larger than its route takes (a browser's form post: a picture too big). */
export function tooLargeAnswer(accept: string | null | undefined): PlainAnswer {
  const err = new TooLarge(message('too-large'));
  return refusal(err, accept, { title: STORE_NAME, text: `${err.message} Please go back and choose a smaller file.`, link: HOME_LINK });
}

/** 403: a write from another site (its Origin is not the store's). JSON: the store's own pages never send one. */
export function crossSiteAnswer(): PlainAnswer {
  return jsonAnswer(new Forbidden(message('cross-site')));
}

/**
 * 503: a page while the database is out of reach (a failover, a restart), with Retry-After and a
 * link to try `retryPath` (a local path) again. API requests get errorResponse's JSON instead.
 */
export function unavailablePage(retryPath: string): PlainAnswer {
  const content = { title: `${STORE_NAME}: back in a moment`, heading: 'Back in a moment', text: message('busy'), link: { href: encodeURI(retryPath), label: 'Try again' } };
  return pageAnswer(503, content, { 'retry-after': '5' });
}

/** 403: a signed-in visitor on a page that is not for them (a customer in the back office); `reason` is the error's message. */
export function notAllowedPage(reason: string): PlainAnswer {
  return pageAnswer(403, { title: `Not allowed · ${STORE_NAME}`, heading: 'Not allowed', text: `${reason}.`, link: { href: '/', label: 'Back to the store' } });
}

/** The answer as a Response, with any headers of the request's own (its request id). */
export function toResponse(answer: PlainAnswer, headers: Record<string, string> = {}): Response {
  return new Response(answer.body, { status: answer.status, headers: { ...answer.headers, ...headers } });
}

/** What `load` finds for a back-office detail page, or a plain 404 saying `text` when it throws NotFound. */
export async function foundOr404<T>(load: () => Promise<T>, text: string): Promise<T | Response> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof NotFound) return new Response(text, { status: 404 });
    throw err;
  }
}
