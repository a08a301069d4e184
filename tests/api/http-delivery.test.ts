import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

/** Bytes on the wire: what the server sends for a request, without decoding. */
async function raw(url: string, init: { method?: string; encoding?: string } = {}) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.encoding ? { 'accept-encoding': init.encoding } : {} }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('bytes on the wire', () => {
  let server: RunningServer;
  let script: string;
  let style: string | undefined;
  beforeAll(async () => {
    server = await startServer('pglite');
    const html = await (await fetch(server.baseUrl + '/')).text();
    script = html.match(/\/_astro\/[\w.-]+\.js/)![0];
    style = html.match(/\/_astro\/[\w.-]+\.css/)?.[0];
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('compresses every kind of text response with brotli or gzip', async () => {
    const paths = ['/', '/product/2', '/about', '/api/v1/products?limit=3', '/sitemap.xml', '/robots.txt', '/favicon.svg', script, ...(style ? [style] : [])];
    for (const p of paths) {
      for (const encoding of ['br', 'gzip']) {
        const res = await raw(server.baseUrl + p, { encoding });
        expect(res.status, p).toBe(200);
        expect(res.headers['content-encoding'], `${p} ${encoding}`).toBe(encoding);
        expect(String(res.headers.vary), p).toMatch(/accept-encoding/i);
      }
      const plain = await raw(server.baseUrl + p);
      expect(plain.headers['content-encoding'], p).toBeUndefined();
    }
  });

  it('sends hashed assets precompressed and immutable on GET and HEAD alike', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await raw(server.baseUrl + script, { method, encoding: 'br, gzip' });
      expect(res.headers['cache-control'], method).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding'], method).toBe('br');
    }
    // The bytes sent are the file brotli'd at build time, not compressed again per request.
    const onDisk = statSync(path.join('dist/client', script + '.br')).size;
    const res = await raw(server.baseUrl + script, { encoding: 'br' });
    expect(res.bytes).toBe(onDisk);
    expect(onDisk).toBeLessThan(readFileSync(path.join('dist/client', script)).length / 2);
  });

  it('gives other static files a day of freshness', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await raw(server.baseUrl + '/favicon.svg', { method });
      expect(res.headers['cache-control']).toMatch(/^public, max-age=86400/);
    }
  });

  it('offers smaller images and only the first carousel slide to Save-Data requests', async () => {
    // Widths of the renditions a browser may load: src and srcset attributes only (not meta tags or island props).
    const widths = (html: string) =>
      [...html.matchAll(/\s(?:src|srcset)="([^"]+)"/g)].flatMap((a) => [...a[1]!.matchAll(/\/media\/[a-f0-9]{32}\/(\d+)\.(?:avif|webp)/g)].map((m) => Number(m[1])));
    const slides = (html: string) => (html.match(/class="swiper-slide hero-slide"/g) ?? []).length;
    const full = await (await fetch(server.baseUrl + '/')).text();
    const lite = await (await fetch(server.baseUrl + '/', { headers: { 'save-data': 'on' } })).text();
    expect(slides(full)).toBeGreaterThan(1);
    expect(slides(lite)).toBe(1);
    expect(Math.max(...widths(full))).toBeGreaterThan(640);
    expect(Math.max(...widths(lite))).toBe(480); // Save-Data's widest: the banner's smallest rendition, as the cards'
    const product = await (await fetch(server.baseUrl + '/product/4', { headers: { 'save-data': 'on' } })).text();
    expect(Math.max(...widths(product))).toBeLessThanOrEqual(480);
    const productFull = await (await fetch(server.baseUrl + '/product/4')).text();
    expect(Math.max(...widths(productFull))).toBeGreaterThan(480);
  });
});
