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
 */
export function securityHeaders(opts: { https: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), interest-cohort=(), payment=(self "https://checkout.paystack.com")',
    'x-frame-options': 'DENY',
    ...(opts.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** File types precompressed at build time. */
export const PRECOMPRESSED_EXTENSIONS = ['.js', '.mjs', '.css', '.svg', '.html', '.xml', '.txt', '.json', '.webmanifest'];
