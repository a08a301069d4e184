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
 * A subresource (`isSubresourcePath`: scripts, styles, catalogue images) gets only the headers that
 * mean something for it: referrer and permissions policies and framing rules act on documents, and
 * on a phone's purchase path those three cost about 230 bytes on each of some forty files.
 */
export function securityHeaders(opts: { https: boolean; subresource?: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    ...(opts.subresource
      ? {}
      : {
          'referrer-policy': 'strict-origin-when-cross-origin',
          'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), interest-cohort=(), payment=(self "https://checkout.paystack.com")',
          'x-frame-options': 'DENY',
        }),
    ...(opts.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** Paths that only ever answer with scripts, styles or images, never a page: hashed build assets and catalogue media. */
export function isSubresourcePath(pathname: string): boolean {
  return pathname.startsWith('/_astro/') || pathname.startsWith('/media/');
}

const KB = 1024;
/** Request body limits by route: JSON and forms 64 KB, picture uploads 5 MB plus the multipart envelope, webhooks 1 MB. */
export const BODY_LIMITS = {
  json: 64 * KB,
  upload: 5 * KB * KB + 64 * KB,
  webhook: 1024 * KB,
} as const;

/** Routes that take a picture upload. */
const UPLOAD_ROUTES = /^\/api\/v1\/user-auth\/upload-image\/?$|^\/profile\/picture\/?$|^\/api\/v1\/admin\/(products\/\d+\/images|categories\/\d+\/banner)\/?$/;

export function bodyLimitFor(pathname: string): number {
  if (pathname.startsWith('/api/v1/payments/') || pathname.startsWith('/api/v1/webhooks/')) return BODY_LIMITS.webhook;
  if (UPLOAD_ROUTES.test(pathname)) return BODY_LIMITS.upload;
  return BODY_LIMITS.json;
}

/**
 * The adapter's own ceiling for bodies sent without Content-Length: a little above the largest
 * route limit, so the route's reader (which answers with the route's own message) trips first.
 */
export const MAX_BODY_BYTES = Math.max(...Object.values(BODY_LIMITS)) + 64 * KB;

/** File types precompressed at build time. */
export const PRECOMPRESSED_EXTENSIONS = ['.js', '.mjs', '.css', '.svg', '.html', '.xml', '.txt', '.json', '.webmanifest'];
