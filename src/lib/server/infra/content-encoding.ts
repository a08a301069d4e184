import Negotiator from 'negotiator';

/**
 * The content encoding to answer with, negotiated as the HTTP server's compression library does
 * (the `negotiator` package it brings): the client's q-values first (`br;q=0` refuses brotli,
 * `*;q=0` refuses everything unnamed), brotli before gzip where the client likes both as much,
 * identity when nothing offered is acceptable.
 */
export type ContentEncoding = 'br' | 'gzip';

/** Negotiator 0.6's second argument (the server's order among equals) is missing from its types. */
type EncodingNegotiator = { encoding(available: readonly string[], preferred: readonly string[]): string | undefined };

/** The encoding of `offered` (in the server's order of preference) the client takes most, or null for none (identity). */
export function negotiateEncoding(acceptEncoding: string | null | undefined, offered: readonly ContentEncoding[] = ['br', 'gzip']): ContentEncoding | null {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding ?? undefined } }) as unknown as EncodingNegotiator;
  const chosen = negotiator.encoding([...offered, 'identity'], offered);
  return offered.find((encoding) => encoding === chosen) ?? null;
}

/** Whether the client takes this encoding at all (a q-value above 0). */
export function acceptsEncoding(acceptEncoding: string | null | undefined, encoding: ContentEncoding): boolean {
  return new Negotiator({ headers: { 'accept-encoding': acceptEncoding ?? undefined } }).encodings([encoding]).includes(encoding);
}
