/**
 * The HTTP server of the built store (started by entry.ts). @astrojs/node renders pages and endpoints in its
 * middleware mode; this module is the HTTP server around it, so that `node dist/server/entry.mjs`
 * alone serves the store with:
 * - static files from dist/client, precompressed at build time (.br/.gz beside each file),
 *   hashed /_astro/* assets immutable for a year on GET and HEAD alike;
 * - brotli/gzip compression of every rendered text response (HTML, JSON, XML, SVG, text).
 */
import http from 'node:http';
import compression from 'compression';
import sirv from 'sirv';
import { handler } from '@astrojs/node/server.js';
import { assetCacheControl, shouldCompress } from './http-policy';


// Rendered responses are compressed as they stream; brotli at quality 4 keeps the CPU cost
// near gzip's while saving more bytes on slow networks.
const compress = compression({ threshold: 0, filter: (req, res) => shouldCompress(res.getHeader('content-type'), res.getHeader('content-encoding')) });

/** Serves dist/client (`clientDir`) and renders everything else. */
export function createRequestListener(clientDir: string): http.RequestListener {
  const assets = sirv(clientDir, {
    brotli: true,
    gzip: true,
    etag: true,
    extensions: [],
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', assetCacheControl(pathname));
    },
  });
  return (req, res) => {
    const render = () => {
      compress(req as never, res as never, () => void handler(req, res));
    };
    if (req.method === 'GET' || req.method === 'HEAD') assets(req, res, render);
    else render();
  };
}

export function startServer(clientDir: string): http.Server {
  const port = Number(process.env.PORT ?? 4321);
  const host = process.env.HOST || '0.0.0.0';
  const server = http.createServer(createRequestListener(clientDir));
  // Slow mobile clients get time; idle keep-alive sockets behind a load balancer stay open a little longer than its own timeout.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(port, host, () => {
    process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'listening', url: `http://${host}:${port}` }) + '\n');
  });
  return server;
}


