import { describe, expect, it } from 'vitest';
import { clientAddressFrom, parseProxyTrust } from '@/lib/domain/client-address';

describe('client address behind proxies (TRUST_PROXY)', () => {
  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    const none = parseProxyTrust(undefined);
    expect(clientAddressFrom('203.0.113.9', '1.2.3.4', none)).toBe('203.0.113.9');
    expect(clientAddressFrom('::ffff:203.0.113.9', undefined, none)).toBe('203.0.113.9');
  });

  it('with a hop count, takes the address that many hops from the socket', () => {
    const one = parseProxyTrust('1');
    // nginx appends the client it saw; a forged left-hand entry is ignored
    expect(clientAddressFrom('127.0.0.1', '6.6.6.6, 198.51.100.7', one)).toBe('198.51.100.7');
    expect(clientAddressFrom('127.0.0.1', undefined, one)).toBe('127.0.0.1');
    expect(clientAddressFrom('127.0.0.1', '198.51.100.7', parseProxyTrust('2'))).toBe('198.51.100.7');
  });

  it('with CIDRs, takes the right-most untrusted address', () => {
    const trust = parseProxyTrust('127.0.0.1, 10.0.0.0/8');
    expect(clientAddressFrom('10.1.2.3', '6.6.6.6, 198.51.100.7, 10.9.9.9', trust)).toBe('198.51.100.7');
    // a socket that is not a trusted proxy is the client, whatever the header says
    expect(clientAddressFrom('198.51.100.50', '6.6.6.6', trust)).toBe('198.51.100.50');
    expect(clientAddressFrom('127.0.0.1', 'garbage, 198.51.100.7', trust)).toBe('198.51.100.7');
  });

  it('refuses a malformed setting', () => {
    expect(() => parseProxyTrust('10.0.0.0/99')).toThrow();
    expect(() => parseProxyTrust('proxy.example')).toThrow();
  });
});
