import { describe, expect, it } from 'vitest';
import { parseProxyTrust } from '@/lib/domain/client-address';
import { forwardedOrigin, publicOriginFor, type PublicOriginInput } from '@/lib/domain/public-origin';

const proxied = { host: 'shop.example', xForwardedProto: 'https' };
const input = (over: Partial<PublicOriginInput>): PublicOriginInput => ({
  siteUrl: 'http://localhost:4321',
  explicit: false,
  trust: parseProxyTrust('127.0.0.1'),
  peer: '127.0.0.1',
  headers: proxied,
  ...over,
});

describe('the public origin (PUBLIC_SITE_URL, or a trusted proxy)', () => {
  it('is PUBLIC_SITE_URL when it is set, whatever a proxy forwards', () => {
    expect(publicOriginFor(input({ siteUrl: 'https://shop.example/', explicit: true, headers: { host: 'evil.example', xForwardedProto: 'http' } }))).toBe('https://shop.example');
    expect(publicOriginFor(input({ siteUrl: 'http://127.0.0.1:5000', explicit: true }))).toBe('http://127.0.0.1:5000');
  });

  it("comes from a trusted proxy's headers when PUBLIC_SITE_URL is not set", () => {
    expect(publicOriginFor(input({}))).toBe('https://shop.example');
    expect(publicOriginFor(input({ peer: '::ffff:127.0.0.1', headers: { host: 'app:4321', xForwardedProto: 'https', xForwardedHost: 'shop.example' } }))).toBe('https://shop.example');
    expect(publicOriginFor(input({ trust: parseProxyTrust('1'), peer: '10.0.0.9', headers: { host: 'shop.example:8443', xForwardedProto: 'https' } }))).toBe('https://shop.example:8443');
    // the default port is no part of the origin
    expect(publicOriginFor(input({ headers: { host: 'shop.example:443', xForwardedProto: 'https' } }))).toBe('https://shop.example');
  });

  it('ignores forwarded headers from a peer that is not a trusted proxy', () => {
    expect(publicOriginFor(input({ peer: '203.0.113.9' }))).toBe('http://localhost:4321');
    expect(publicOriginFor(input({ trust: parseProxyTrust(undefined) }))).toBe('http://localhost:4321');
  });

  it('needs a scheme from the proxy, and refuses malformed values', () => {
    expect(publicOriginFor(input({ headers: { host: 'shop.example' } }))).toBe('http://localhost:4321');
    expect(forwardedOrigin({ host: 'shop.example', xForwardedProto: 'javascript' })).toBeNull();
    expect(forwardedOrigin({ host: 'evil.example/path', xForwardedProto: 'https' })).toBeNull();
    expect(forwardedOrigin({ host: 'user@evil.example', xForwardedProto: 'https' })).toBeNull();
    expect(forwardedOrigin({ xForwardedProto: 'https' })).toBeNull();
  });

  it('reads the first value the proxy wrote, and RFC 7239 Forwarded before X-Forwarded-*', () => {
    expect(forwardedOrigin({ host: 'x', xForwardedProto: 'https, http', xForwardedHost: 'shop.example, internal' })).toBe('https://shop.example');
    expect(forwardedOrigin({ host: 'internal', forwarded: 'for=203.0.113.9;proto=https;host="shop.example", for=10.0.0.2;proto=http', xForwardedProto: 'http' })).toBe('https://shop.example');
    expect(forwardedOrigin({ host: 'shop.example', forwarded: 'for=203.0.113.9;Proto=HTTPS' })).toBe('https://shop.example');
  });
});
