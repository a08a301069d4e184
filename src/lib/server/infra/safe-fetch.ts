import { lookup } from 'node:dns/promises';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Fetching a file named by staff (a picture's https:// address in an import) without letting the
 * address reach inside the store's network (server-side request forgery): https only; the name is
 * resolved once and every address it resolves to must be public (no private, loopback, link-local,
 * shared or reserved range); the connection goes to the address checked, never to a second lookup
 * (so a name cannot answer differently in between); no redirects; a size cap and a timeout.
 */

export type FetchRefusal = 'refused' | 'unreachable' | 'too-large' | 'not-an-image';

export class FetchRefused extends Error {
  constructor(readonly reason: FetchRefusal) {
    super(reason);
  }
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** True for an address no fetch may reach: private, loopback, link-local, shared, documentation or reserved (IPv4-mapped IPv6 as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return BLOCKED.check(mapped, 'ipv4');
    return BLOCKED.check(address, 'ipv6');
  }
  return BLOCKED.check(address, 'ipv4');
}

export interface SafeFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Content types taken (by prefix: `image/`). */
  typePrefix: string;
}

/** Resolves a host name to its addresses, all of which must be public; answers the first. */
async function publicAddress(host: string): Promise<{ address: string; family: number }> {
  const literal = host.replace(/^\[|\]$/g, '');
  const found = isIP(literal) ? [{ address: literal, family: isIP(literal) }] : await lookup(host, { all: true, verbatim: true }).catch(() => null);
  if (!found || found.length === 0) throw new FetchRefused('unreachable');
  if (found.some((a) => isPrivateAddress(a.address))) throw new FetchRefused('refused');
  return found[0]!;
}

/** GETs an https:// address under the limits; any refusal is a FetchRefused with its reason. */
export async function safeFetch(address: string, limits: SafeFetchLimits): Promise<{ bytes: Uint8Array; contentType: string }> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchRefused('refused');
  }
  if (url.protocol !== 'https:' || url.username || url.password) throw new FetchRefused('refused');
  const pinned = await publicAddress(url.hostname);
  // The connection goes to the address just checked, whatever a second lookup would say.
  const pinnedLookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    const request = https.get(url, { lookup: pinnedLookup, timeout: limits.timeoutMs, headers: { accept: 'image/*', 'user-agent': 'maison-store-import' } }, (res) => {
      const type = String(res.headers['content-type'] ?? '').toLowerCase();
      const declared = Number(res.headers['content-length'] ?? 0);
      if ((res.statusCode ?? 0) !== 200) return fail('unreachable');
      if (!type.startsWith(limits.typePrefix)) return fail('not-an-image');
      if (declared > limits.maxBytes) return fail('too-large');
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limits.maxBytes) return fail('too-large');
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), contentType: type }));
      res.on('error', () => fail('unreachable'));
    });
    const deadline = setTimeout(() => fail('unreachable'), limits.timeoutMs);
    deadline.unref();
    function fail(reason: FetchRefusal) {
      clearTimeout(deadline);
      request.destroy();
      reject(new FetchRefused(reason));
    }
    request.on('timeout', () => fail('unreachable'));
    request.on('error', () => fail('unreachable'));
    request.on('close', () => clearTimeout(deadline));
  });
}
