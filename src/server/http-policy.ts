/** Caching and compression rules of the HTTP server, pure so that unit tests pin them down. */

/** Hashed build assets never change under their name; other public files may, so they are revalidated daily. */
export function assetCacheControl(pathname: string): string {
  if (pathname.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=86400, stale-while-revalidate=604800';
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|manifest\+json|ld\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/i;

/** Text bodies are worth compressing; images and already-encoded bodies are not. */
export function shouldCompress(contentType: unknown, contentEncoding: unknown): boolean {
  if (contentEncoding && contentEncoding !== 'identity') return false;
  return typeof contentType === 'string' && TEXT_TYPES.test(contentType);
}

/**
 * Headers on every response. The Content-Security-Policy (with script hashes and
 * frame-ancestors 'none') comes from Astro for rendered pages (astro.config.mjs security.csp);
 * X-Frame-Options covers browsers that predate frame-ancestors.
 *
 * Each kind of answer (`answerKind`) gets only the headers that mean something for it. Referrer
 * and permissions policies act on documents; a page's scripts, styles and pictures need neither
 * nor the framing rule, and an API's JSON keeps only the framing rule (a framed answer is still a
 * drag-and-drop target). On a phone's purchase path those policies cost about 200 bytes on each
 * of some forty files.
 */
export type AnswerKind = 'document' | 'api' | 'subresource';

export function securityHeaders(opts: { https: boolean; kind: AnswerKind }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    ...(opts.kind === 'document'
      ? {
          'referrer-policy': 'strict-origin-when-cross-origin',
          'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://checkout.paystack.com")',
        }
      : {}),
    ...(opts.kind === 'subresource' ? {} : { 'x-frame-options': 'DENY' }),
    ...(opts.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/**
 * What a path answers with: hashed build assets and catalogue media are only ever scripts, styles
 * or images; /api/ answers JSON (or a form post's redirect, or a document to download); the rest are pages.
 */
export function answerKind(pathname: string): AnswerKind {
  if (pathname.startsWith('/_astro/') || pathname.startsWith('/media/')) return 'subresource';
  if (pathname.startsWith('/api/')) return 'api';
  return 'document';
}

const KB = 1024;
/**
 * Request body limits by route: JSON and forms 64 KB, a content page's text 512 KB (its 200 KB of
 * markdown, escaped in JSON, is then refused with the editor's own message), picture uploads 5 MB
 * plus the multipart envelope, webhooks 1 MB, a catalogue import's CSV (20 MB) with its ZIP of
 * pictures (40 MB).
 */
export const BODY_LIMITS = {
  json: 64 * KB,
  page: 512 * KB,
  upload: 5 * KB * KB + 64 * KB,
  catalogueImport: 60 * KB * KB + 64 * KB,
  webhook: 1024 * KB,
} as const;

/** Routes that take a picture upload (a content page's editor posts its text with one). */
const UPLOAD_ROUTES =
  /^\/api\/v1\/user-auth\/upload-image\/?$|^\/profile\/picture\/?$|^\/api\/v1\/admin\/(products\/\d+\/images|categories\/\d+\/banner|pages\/[a-z]+\/pictures)\/?$|^\/admin\/pages\/[a-z]+\/?$/;

/** The content pages' editor: its forms and its API take a page's whole text. */
const PAGE_ROUTES = /^\/(api\/v1\/)?admin\/pages(\/|$)/;

export function bodyLimitFor(pathname: string): number {
  if (pathname.startsWith('/api/v1/payments/') || pathname.startsWith('/api/v1/webhooks/')) return BODY_LIMITS.webhook;
  if (UPLOAD_ROUTES.test(pathname)) return BODY_LIMITS.upload;
  if (PAGE_ROUTES.test(pathname)) return BODY_LIMITS.page;
  if (/^\/api\/v1\/admin\/imports\/?$/.test(pathname)) return BODY_LIMITS.catalogueImport;
  return BODY_LIMITS.json;
}

/**
 * The adapter's own ceiling for bodies sent without Content-Length: a little above the largest
 * route limit, so the route's reader (which answers with the route's own message) trips first.
 */
export const MAX_BODY_BYTES = Math.max(...Object.values(BODY_LIMITS)) + 64 * KB;

/** File types precompressed at build time. */
export const PRECOMPRESSED_EXTENSIONS = ['.js', '.mjs', '.css', '.svg', '.html', '.xml', '.txt', '.json', '.webmanifest'];
