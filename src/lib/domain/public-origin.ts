import { peerIsTrustedProxy, type ProxyTrust } from './client-address';

/**
 * The store's public origin: the scheme, host and port shoppers' browsers use (https://shop.example),
 * which is not the URL the app sees on its socket behind a TLS-terminating proxy (http://10.0.0.5:4321).
 * The HTTP server works it out once per request (src/server/server.ts) and every check that needs
 * an origin uses that one value (Astro.locals.publicOrigin): the CSRF rule, same-origin Referers of
 * form posts, cookies' Secure, HSTS, payment callback URLs.
 *
 * The rule:
 * 1. PUBLIC_SITE_URL, when it is set, is the public origin, whatever the request's headers say.
 * 2. When it is not set, and the immediate peer is a proxy trusted by TRUST_PROXY, the proxy's
 *    forwarded headers name it: `Forwarded` (its first element's proto= and host=), else
 *    X-Forwarded-Proto and X-Forwarded-Host (their first values), the host falling back to Host.
 *    The proxy must set these headers itself (deploy/nginx.conf overwrites them), and a scheme is
 *    required: a proxy that sends none gives no forwarded origin.
 * 3. Otherwise, the default site URL (http://localhost:$PORT).
 * Headers a browser sends cannot be set by another site's page, so a forged value can only change
 * the origin of the forger's own requests. Links sent outside a request (e-mails, the sitemap)
 * always use PUBLIC_SITE_URL, which a live store must set.
 */
export interface PublicOriginInput {
  /** PUBLIC_SITE_URL, or the default site URL when `explicit` is false. */
  siteUrl: string;
  explicit: boolean;
  trust: ProxyTrust;
  /** The socket's remote address (the immediate peer). */
  peer: string | undefined;
  headers: { host?: string | undefined; forwarded?: string | undefined; xForwardedProto?: string | undefined; xForwardedHost?: string | undefined };
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** `scheme://host` as an origin when both are well formed (http or https, a bare host[:port]); null otherwise. */
export function originFrom(scheme: string | undefined, host: string | undefined): string | null {
  const proto = scheme?.trim().toLowerCase();
  const name = host?.trim();
  if ((proto !== 'http' && proto !== 'https') || !name || !HOST.test(name)) return null;
  try {
    return new URL(`${proto}://${name}`).origin;
  } catch {
    return null;
  }
}

const first = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/** proto= and host= of the first element of an RFC 7239 Forwarded header. */
function forwardedPairs(header: string | undefined): { proto?: string; host?: string } {
  const element = first(header);
  const pairs: { proto?: string; host?: string } = {};
  for (const part of element?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (key === 'proto' || key === 'host') pairs[key] = value;
  }
  return pairs;
}

/** The origin a trusted proxy says the browser used, or null when it says no scheme (or a malformed one). */
export function forwardedOrigin(headers: PublicOriginInput['headers']): string | null {
  const standard = forwardedPairs(headers.forwarded);
  const proto = standard.proto ?? first(headers.xForwardedProto);
  if (!proto) return null;
  return originFrom(proto, standard.host ?? first(headers.xForwardedHost) ?? headers.host);
}

export function publicOriginFor(input: PublicOriginInput): string {
  const configured = new URL(input.siteUrl).origin;
  if (input.explicit || !peerIsTrustedProxy(input.peer, input.trust)) return configured;
  return forwardedOrigin(input.headers) ?? configured;
}

/** Cookies carry Secure, and responses HSTS, when the public origin is https. */
export function isHttpsOrigin(origin: string): boolean {
  return origin.startsWith('https://');
}
