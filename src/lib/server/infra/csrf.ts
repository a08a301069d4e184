import { CSRF_FIELD } from '@/lib/domain/forms';
import { BODY_LIMITS } from '@/server/http-policy';
import { readBodyLimited } from './http';
import { sameSignature, sign } from './signing';

/**
 * The form CSRF token. Browsers send Origin / Sec-Fetch-Site on writes and the cross-site ones
 * are refused by isCrossSiteWrite (http.ts). Some proxy browsers (Opera Mini) send neither, so a
 * cookie-authenticated form post without a same-origin Origin or Sec-Fetch-Site must carry this
 * token in the `_csrf` field. It is an HMAC of the session token itself: stable for the session,
 * unguessable without the HttpOnly cookie, and nothing to store. Bearer-token clients are exempt
 * (no ambient credentials), as are JSON bodies (a cross-site page cannot send them without CORS).
 */
export function csrfTokenFor(sessionToken: string): string {
  return sign(sessionToken, 'ml-csrf-v1');
}

/** Every token's length (an HMAC-SHA256 in base64url): the slot a shared page keeps for it is as long (shared-pages.ts). */
export const CSRF_TOKEN_LENGTH = 43;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Content types a cross-site HTML form can send (CORS "simple" requests). */
const FORM_LIKE = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** The largest form body read to look for the token: a profile picture plus its envelope. */
export const CSRF_MAX_BODY_BYTES = BODY_LIMITS.upload;

export function hasBearer(request: Request): boolean {
  return request.headers.get('authorization')?.toLowerCase().startsWith('bearer ') ?? false;
}

/**
 * True for a state-changing request that does not prove it comes from this site through Origin
 * or Sec-Fetch-Site. Such a request, when cookie-authenticated, must carry the form's token
 * (in the body of a form post, or an X-CSRF-Token header); otherwise it is refused, whatever
 * its body (a cookie-only logout with no Origin and no Referer included). `publicOrigin` is the
 * store's public origin (Astro.locals.publicOrigin), not the socket's URL.
 */
export function needsCsrfToken(request: Request, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get('origin') === publicOrigin) return false;
  if (request.headers.get('sec-fetch-site') === 'same-origin') return false;
  return true;
}

/** Reads a clone of the body (bounded) and returns its `_csrf` field; the route still reads the original. */
async function tokenInBody(request: Request): Promise<string | null> {
  const type = request.headers.get('content-type') ?? '';
  if (!FORM_LIKE.some((t) => type.toLowerCase().startsWith(t))) return null;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBodyLimited(request.clone(), CSRF_MAX_BODY_BYTES);
  } catch {
    return null;
  }
  try {
    if (type.toLowerCase().startsWith('text/plain')) {
      const match = new RegExp(`(?:^|\\r?\\n)${CSRF_FIELD}=([^\\r\\n]*)`).exec(new TextDecoder().decode(bytes));
      return match?.[1] ?? null;
    }
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    const value = form.get(CSRF_FIELD);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Whether a request that needs the token (see needsCsrfToken) carries the right one. */
export async function hasValidCsrfToken(request: Request, expected: string): Promise<boolean> {
  const sent = request.headers.get('x-csrf-token') ?? (await tokenInBody(request));
  return sent !== null && sameSignature(sent, expected);
}
