import { parseCookie } from 'cookie';

/**
 * A cookie of the request, read exactly as Astro's `ctx.cookies.get()` reads it (the same `cookie`
 * parser, keys and values trimmed, the value URL-decoded when it decodes). Everything that decides
 * from a cookie before or around rendering (the middleware, the route cache's key and its session
 * check) reads it here, so the cache can never see a different cookie than the page did.
 */
export function requestCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  const raw = parseCookie(header, { decode: (value) => value })[name];
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
