import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The store's one way to sign: HMAC-SHA256 under a key, over parts kept apart by a NUL (so
 * ('ab', 'c') and ('a', 'bc') never sign alike), base64url. The CSRF token (csrf.ts: keyed by the
 * session token) and the links in mails (below: keyed by LINK_SIGNING_SECRET) both use it.
 */
export function sign(key: string, ...parts: string[]): string {
  return createHmac('sha256', key).update(parts.join('\0')).digest('base64url');
}

/** Compares two signatures (or any two strings) in constant time. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What a signed link may do; a token signed for one purpose is refused for any other. */
/** gift-return: the returns link a gift's recipient is texted (subject the order id); gift-return-proof: their proven phone, in a short-lived cookie. */
export type LinkPurpose = 'newsletter-confirm' | 'newsletter-unsubscribe' | 'back-in-stock-confirm' | 'gift-return' | 'gift-return-proof' | 'after-sign-in';

/**
 * Tokens for links in mails that act without a login (confirm a subscription, unsubscribe):
 * `<subject in base64url>.<signature over purpose and subject>`. Nothing is stored; a token is
 * only as good as the secret (config.linkSecret) and says nothing beyond its subject.
 */
export function createLinkSigner(secret: string) {
  return {
    token(purpose: LinkPurpose, subject: string): string {
      return `${Buffer.from(subject, 'utf8').toString('base64url')}.${sign(secret, 'ml-link-v1', purpose, subject)}`;
    },
    /** The subject of a well-formed token signed for this purpose; null for anything else. */
    verify(purpose: LinkPurpose, token: string | null | undefined): string | null {
      if (!token || token.length > 1024) return null;
      const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return null;
      const subject = Buffer.from(match[1]!, 'base64url').toString('utf8');
      // base64url decoding is lenient: the subject must encode back to exactly what was sent.
      if (Buffer.from(subject, 'utf8').toString('base64url') !== match[1]) return null;
      return sameSignature(match[2]!, sign(secret, 'ml-link-v1', purpose, subject)) ? subject : null;
    },
  };
}
export type LinkSigner = ReturnType<typeof createLinkSigner>;
