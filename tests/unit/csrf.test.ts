import { describe, expect, it } from 'vitest';
import { isCrossSiteWrite } from '../../src/lib/server/http';

const url = new URL('https://shop.example/api/v1/address/delete/1');
const req = (method: string, headers: Record<string, string> = {}) => new Request(url, { method, headers });

describe('isCrossSiteWrite', () => {
  it('never blocks reads', () => {
    expect(isCrossSiteWrite(req('GET', { origin: 'https://evil.example' }), url)).toBe(false);
  });
  it('allows same-origin browser writes', () => {
    expect(isCrossSiteWrite(req('POST', { origin: 'https://shop.example', 'sec-fetch-site': 'same-origin' }), url)).toBe(false);
  });
  it('refuses writes from another origin, whatever the content type', () => {
    expect(isCrossSiteWrite(req('POST', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }), url)).toBe(true);
    expect(isCrossSiteWrite(req('DELETE', { origin: 'https://evil.example' }), url)).toBe(true);
    expect(isCrossSiteWrite(req('POST', { 'sec-fetch-site': 'cross-site' }), url)).toBe(true);
  });
  it('lets API clients without Origin through (bearer-token calls, empty bodies)', () => {
    expect(isCrossSiteWrite(req('DELETE', { authorization: 'Bearer abc' }), url)).toBe(false);
    expect(isCrossSiteWrite(req('POST'), url)).toBe(false);
  });
});
