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
import { clientAddressFrom } from '../lib/domain/client-address';
import { isHttpsOrigin, publicOriginFor } from '../lib/domain/public-origin';
import { ConfigError, getConfig, type Config } from '../lib/server/infra/config';
import { INSTANCE_ID } from '../lib/server/infra/instance';
import { createLogger } from '../lib/server/infra/log';
import { tooLargeAnswer } from '../lib/server/infra/error-pages';
import { metrics, routeLabel } from '../lib/server/infra/metrics';
import { negotiateEncoding } from '../lib/server/infra/content-encoding';
import { answerKind, assetCacheControl, bodyLimitFor, securityHeaders, shouldCompress } from './http-policy';


// Rendered responses are compressed as they stream; brotli at quality 4 keeps the CPU cost
// near gzip's while saving more bytes on slow networks.
const compress = compression({ threshold: 0, filter: (_req, res) => shouldCompress(res.getHeader('content-type'), res.getHeader('content-encoding')) });

/**
 * A body declared larger than its route takes is refused with 413 before a byte of it is kept;
 * the connection is then closed so the client cannot keep sending. Bodies without Content-Length
 * are cut off where they are read (src/lib/server/infra/http.ts) and by the adapter's ceiling.
 */
function refuseLargeBody(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const declared = Number(req.headers['content-length'] ?? 0);
  const path = (req.url ?? '/').split('?')[0]!;
  if (!(declared > bodyLimitFor(path))) return false;
  // A browser's form post (no script) gets a page with a way back; API clients get the JSON error shape.
  const answer = tooLargeAnswer(req.headers.accept);
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
  // Discard (never buffer) what the client is still sending, so closing does not reset the connection
  // before it has read the answer; then close it for good.
  req.resume();
  res.on('finish', () => setTimeout(() => req.destroy(), 2000).unref());
  return true;
}

/** Serves dist/client (`clientDir`) and renders everything else. */
export function createRequestListener(clientDir: string, config: Config): http.RequestListener {
  const assets = sirv(clientDir, {
    brotli: true,
    gzip: true,
    etag: true,
    extensions: [],
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', assetCacheControl(pathname));
    },
  });
  const headersOf = (https: boolean) => ({
    document: Object.entries(securityHeaders({ https, kind: 'document' })),
    api: Object.entries(securityHeaders({ https, kind: 'api' })),
    subresource: Object.entries(securityHeaders({ https, kind: 'subresource' })),
  });
  const headersOver = { https: headersOf(true), http: headersOf(false) };
  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);
  const observed = metrics();
  return (req, res) => {
    // Every answer is timed for /metrics, cached pages and static files included (see infra/metrics.ts).
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      observed.requests.observe({ route: routeLabel(path, res.statusCode), method: req.method ?? 'GET', status: String(res.statusCode) }, seconds);
      const cache = res.getHeader('x-cache');
      if (typeof cache === 'string') observed.routeCache.inc({ result: cache.toLowerCase() });
    });
    // The origin shoppers' browsers use, worked out once for every check that needs it (see public-origin.ts).
    const publicOrigin = publicOriginFor({
      siteUrl: config.PUBLIC_SITE_URL,
      explicit: config.siteUrlExplicit,
      trust: config.proxyTrust,
      peer: req.socket.remoteAddress,
      headers: {
        host: req.headers.host,
        forwarded: header(req.headers.forwarded),
        xForwardedProto: header(req.headers['x-forwarded-proto']),
        xForwardedHost: header(req.headers['x-forwarded-host']),
      },
    });
    const pathname = (req.url ?? '/').split('?')[0]!;
    const headers = headersOver[isHttpsOrigin(publicOrigin) ? 'https' : 'http'][answerKind(pathname)];
    for (const [name, value] of headers) res.setHeader(name, value);
    if (refuseLargeBody(req, res)) return;
    const render = () => {
      // The shopper's address, believing X-Forwarded-For only as far as TRUST_PROXY says.
      const clientIp = clientAddressFrom(req.socket.remoteAddress, req.headers['x-forwarded-for'], config.proxyTrust);
      compress(req as never, res as never, () => void handler(req, res, undefined, { clientIp, publicOrigin }));
    };
    if (req.method === 'GET' || req.method === 'HEAD') {
      // sirv picks a precompressed file by looking for "br" or "gzip" in Accept-Encoding, q=0
      // or not: it is shown only the encoding negotiated (content-encoding.ts), and the render
      // (whose compression negotiates for itself) gets the header as it came.
      const asked = req.headers['accept-encoding'];
      req.headers['accept-encoding'] = negotiateEncoding(header(asked)) ?? 'identity';
      assets(req, res, () => {
        req.headers['accept-encoding'] = asked;
        render();
      });
    } else render();
  };
}

/**
 * What a server started with an IPC channel (tests/support/store-process.ts) tells its parent: the
 * port it bound and its instance id, or why it could not listen. Without a channel, nothing is sent.
 */
export type ListenReport = { store: 'listening'; port: number; instance: string } | { store: 'listen-failed'; code: string | undefined; message: string };

function reportToParent(report: ListenReport, then?: () => void): void {
  if (process.send && process.connected) process.send(report, undefined, {}, () => then?.());
  else then?.();
}

export function startServer(clientDir: string): http.Server {
  let config: Config;
  try {
    config = getConfig();
  } catch (err) {
    // A bad variable stops start-up with a message that names it, not a stack trace.
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const { PORT: port, HOST: host } = config;
  const log = createLogger(config.LOG_LEVEL);
  // A setting set under its former name still works; the operator is told its new name.
  for (const { from, to } of config.renamedSettings) log.warn('setting renamed', { from, to, hint: `rename ${from} to ${to}` });
  const server = http.createServer(createRequestListener(clientDir, config));
  // Slow mobile clients get time; idle keep-alive sockets behind a load balancer stay open a little longer than its own timeout.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Stop taking connections at once on shutdown; the services' handler (services.ts) lets the
  // requests in flight finish before the process exits.
  // A request that still arrives on an open keep-alive connection (a load balancer's) is served,
  // and its answer closes the connection, so the proxy sends nothing more here.
  const stopListening = () => {
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => res.setHeader('Connection', 'close'));
    server.close();
    server.closeIdleConnections();
  };
  process.once('SIGTERM', stopListening);
  process.once('SIGINT', stopListening);
  // An address it cannot have (taken, or not this machine's) stops the process at once, naming why,
  // rather than leaving whoever started it to wait, or to find another server there.
  const refused = (err: NodeJS.ErrnoException) => {
    log.error('cannot listen', { url: `http://${host}:${port}`, code: err.code, err });
    reportToParent({ store: 'listen-failed', code: err.code, message: err.message }, () => process.exit(1));
  };
  server.once('error', refused);
  server.listen(port, host, () => {
    server.off('error', refused);
    // PORT=0 takes any free port: the one bound is the one reported.
    const bound = server.address();
    const boundPort = typeof bound === 'object' && bound ? bound.port : port;
    log.info('listening', { url: `http://${host}:${boundPort}`, site: config.PUBLIC_SITE_URL, instance: INSTANCE_ID });
    reportToParent({ store: 'listening', port: boundPort, instance: INSTANCE_ID });
  });
  return server;
}


