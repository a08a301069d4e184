import { BlockList, isIP } from 'node:net';

/**
 * Which address a request comes from, behind zero or more trusted proxies (TRUST_PROXY).
 * X-Forwarded-For is only believed as far as the proxies that wrote it are trusted: the client is
 * the right-most address that is not a trusted proxy. Pure: the caller passes the socket address.
 */
export type ProxyTrust = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: BlockList };

/** '' → none; '2' → the two nearest hops are proxies; '10.0.0.0/8, 127.0.0.1' → those addresses are proxies. */
export function parseProxyTrust(value: string | undefined): ProxyTrust {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || text === 'false') return { kind: 'none' };
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
  return { kind: 'addresses', list: parseAddressList(text) };
}

/** '10.0.0.0/8, 127.0.0.1, ::1' → those addresses and ranges; throws on anything that is not one. */
export function parseAddressList(text: string): BlockList {
  const list = new BlockList();
  for (const raw of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [address, bits] = raw.split('/');
    const family = isIP(address ?? '');
    if (!family) throw new Error(`"${raw}" is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) throw new Error(`"${raw}" has a bad prefix length`);
      list.addSubnet(address!, prefix, type);
    }
  }
  return list;
}

/** Whether an address (as a socket or clientAddressFrom gives it) is in the list. */
export function addressInList(list: BlockList, address: string | null | undefined): boolean {
  return address ? isTrusted(list, normalise(address)) : false;
}

/** Strips an IPv4-mapped IPv6 prefix and brackets/ports a proxy may have added. */
function normalise(address: string): string {
  let a = address.trim();
  if (a.startsWith('[')) a = a.slice(1, a.indexOf(']'));
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  if (a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  return a;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (!family) return false;
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Whether the socket's peer is a proxy TRUST_PROXY trusts (with a hop count, any peer is). */
export function peerIsTrustedProxy(socketAddress: string | undefined, trust: ProxyTrust): boolean {
  if (trust.kind === 'none' || !socketAddress) return false;
  if (trust.kind === 'hops') return trust.hops > 0;
  return isTrusted(trust.list, normalise(socketAddress));
}

export function clientAddressFrom(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trust: ProxyTrust): string | null {
  const socket = socketAddress ? normalise(socketAddress) : null;
  if (trust.kind === 'none' || !socket) return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const chain = [...header.split(',').map(normalise).filter((a) => isIP(a) !== 0), socket];
  if (trust.kind === 'hops') return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!isTrusted(trust.list, chain[i]!)) return chain[i]!;
  }
  return chain[0]!;
}

/** The headers a proxy adds to say whom it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Whether a request says it was forwarded by a proxy the store does not trust: with TRUST_PROXY
 * unset, a proxy on the same machine makes every caller look local, so such a request must not be
 * taken for one from the machine itself.
 */
export function forwardedByUntrustedProxy(headers: Pick<Headers, 'has'>, trust: ProxyTrust): boolean {
  return trust.kind === 'none' && FORWARDING_HEADERS.some((name) => headers.has(name));
}
