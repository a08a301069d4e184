/**
 * Where the store may send a browser back or on to (`?next=`, `?back=`, a Referer): a path on this
 * site, judged after the browser's own normalisation, so `/.//evil.example` (which resolves to
 * `//evil.example`), `/\evil.example` or a tab inside `//` cannot leave the site. Every redirect
 * and return link built from input goes through here.
 */
const MAX_PATH = 2000;
// Control characters (browsers drop tabs and newlines from URLs) and backslashes (read as `/`).
const REFUSED_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/**
 * The local path (`pathname + search + hash`) that `input` resolves to on `origin`, or null when it
 * is not a path on this site. `origin` is the store's public origin.
 */
export function localRedirectPath(input: string | null | undefined, origin: string): string | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_PATH) return null;
  if (!input.startsWith('/') || input.startsWith('//') || REFUSED_CHARACTERS.test(input)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(input, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const path = url.pathname + url.search + url.hash;
  // `/.//host` and `/..//host` resolve to `//host`: a link to another site.
  if (!path.startsWith('/') || path.startsWith('//') || REFUSED_CHARACTERS.test(path)) return null;
  return path;
}
