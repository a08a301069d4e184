import { describe, expect, it } from 'vitest';
import { localRedirectPath } from '@/lib/domain/redirects';

const ORIGIN = 'https://shop.example';

describe('localRedirectPath: one judge of every redirect target', () => {
  it.each([
    ['/.//evil.example'],
    ['/./\\evil.example'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['//evil.example'],
    ['///evil.example'],
    ['/..//evil.example'],
    ['/a/../..//evil.example'],
    ['/%2e%2e//evil.example'],
    ['/%2E//evil.example'],
    ['https://evil.example'],
    ['https://shop.example.evil.example/'],
    ['http:evil.example'],
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    ['data:text/html,hi'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['/\r\n/evil.example'],
    ['/\u0000/evil.example'],
    ['\t//evil.example'],
    [' //evil.example'],
    ['evil.example'],
    [''],
    ['/' + 'a'.repeat(3000)],
  ])('refuses %j', (input) => {
    expect(localRedirectPath(input, ORIGIN)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(localRedirectPath(null, ORIGIN)).toBeNull();
    expect(localRedirectPath(undefined, ORIGIN)).toBeNull();
  });

  it.each([
    ['/', '/'],
    ['/collection?page=2', '/collection?page=2'],
    ['/product/3#reviews', '/product/3#reviews'],
    ['/admin/../cart', '/cart'],
    ['/a/./b', '/a/b'],
    // Encoded slashes stay encoded: a path on this site, not a host.
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/search?q=//evil.example', '/search?q=//evil.example'],
  ])('keeps the local path %j as %j', (input, expected) => {
    expect(localRedirectPath(input, ORIGIN)).toBe(expected);
  });
});
