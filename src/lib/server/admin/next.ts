/** A local path (not `//host`) that is safe to send a signed-in user on to; null otherwise. */
export function safeNext(p: string | null | undefined): string | null {
  return p && p.startsWith('/') && !p.startsWith('//') && !p.includes('\\') && p.length < 500 ? p : null;
}
