import { describe, expect, it } from 'vitest';
import { isCrossSiteWrite } from '@/lib/server/infra/http';

const url = new URL('https://shop.example/api/v1/address/delete/1');
const req = (method: string, headers: Record<string, string> = {}) => new Request(url, { method, headers });

describe('isCrossSiteWrite', () => {
  it('never blocks reads', () => {
    expect(isCrossSiteWrite(req('GET', { origin: 'https://evil.example' }), url.origin)).toBe(false);
  });
  it('allows same-origin browser writes', () => {
    expect(isCrossSiteWrite(req('POST', { origin: 'https://shop.example', 'sec-fetch-site': 'same-origin' }), url.origin)).toBe(false);
  });
  it('refuses writes from another origin, whatever the content type', () => {
    expect(isCrossSiteWrite(req('POST', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }), url.origin)).toBe(true);
    expect(isCrossSiteWrite(req('DELETE', { origin: 'https://evil.example' }), url.origin)).toBe(true);
    expect(isCrossSiteWrite(req('POST', { 'sec-fetch-site': 'cross-site' }), url.origin)).toBe(true);
  });
  it('lets API clients without Origin through (bearer-token calls, empty bodies)', () => {
    expect(isCrossSiteWrite(req('DELETE', { authorization: 'Bearer abc' }), url.origin)).toBe(false);
    expect(isCrossSiteWrite(req('POST'), url.origin)).toBe(false);
  });
});

describe('needsCsrfToken (cookie-authenticated form posts without a same-site Origin)', async () => {
  const { needsCsrfToken, csrfTokenFor } = await import('@/lib/server/infra/csrf');
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it('asks a form post with neither Origin nor Sec-Fetch-Site for the token', () => {
    expect(needsCsrfToken(req('POST', form), url.origin)).toBe(true);
    expect(needsCsrfToken(req('POST', { 'content-type': 'multipart/form-data; boundary=x' }), url.origin)).toBe(true);
    expect(needsCsrfToken(req('POST', { 'content-type': 'text/plain' }), url.origin)).toBe(true);
  });
  it('trusts a same-origin Origin or Sec-Fetch-Site and never asks reads; asks every other write', () => {
    expect(needsCsrfToken(req('POST', { ...form, origin: 'https://shop.example' }), url.origin)).toBe(false);
    expect(needsCsrfToken(req('POST', { ...form, 'sec-fetch-site': 'same-origin' }), url.origin)).toBe(false);
    expect(needsCsrfToken(req('GET', form), url.origin)).toBe(false);
    // Any cookie-authenticated write without Origin/Sec-Fetch-Site needs it: JSON and empty bodies too.
    expect(needsCsrfToken(req('POST', { 'content-type': 'application/json' }), url.origin)).toBe(true);
    expect(needsCsrfToken(req('POST', {}), url.origin)).toBe(true);
    expect(needsCsrfToken(req('POST', { 'content-type': 'application/json', origin: 'https://shop.example' }), url.origin)).toBe(false);
  });
  it('derives a stable token per session, different between sessions', () => {
    expect(csrfTokenFor('session-a')).toBe(csrfTokenFor('session-a'));
    expect(csrfTokenFor('session-a')).not.toBe(csrfTokenFor('session-b'));
    expect(csrfTokenFor('session-a')).toMatch(/^[\w-]{43}$/);
  });
});
