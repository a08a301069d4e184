/**
 * The server the TLS end-to-end suite starts (playwright.tls.config.ts): the built store on a fresh
 * database (tests/support/e2e-server.ts) on a loopback port, behind Debian's nginx terminating TLS
 * from deploy/nginx.conf with a self-signed certificate made now, as a live store runs:
 *
 *   browser --https://127.0.0.1:TLS_PORT--> nginx --http://127.0.0.1:app--> store
 *
 * The store has PUBLIC_SITE_URL=https://127.0.0.1:TLS_PORT and TRUST_PROXY=127.0.0.1, and binds a
 * loopback port of its own choosing (PORT=0), reported back through e2e-server.ts; nginx is
 * configured with that port. nginx's plain-http server on REDIRECT_PORT sends everything to https.
 * "store ready on <url>" (which Playwright waits for) is printed once both are up and their own.
 * Signals stop all of it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureNginx, selfSignedCertificate, startNginx } from '../../scripts/nginx';
import { launchStore } from './store-process';

const tlsPort = Number(process.env.TLS_PORT);
const redirectPort = Number(process.env.REDIRECT_PORT);
if (!tlsPort || !redirectPort) throw new Error('TLS_PORT and REDIRECT_PORT are required');

ensureNginx();
const runDir = mkdtempSync(path.join(tmpdir(), 'store-tls-'));
const children: ChildProcess[] = [];
let stopping = false;
const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  // nginx first, then the store (which drops its database when it has stopped).
  const [store, nginx] = children;
  nginx?.kill('SIGQUIT');
  if (store && store.exitCode === null) {
    store.once('exit', () => finish(code));
    store.kill('SIGTERM');
  } else finish(code);
};
const finish = (code: number): never => {
  rmSync(runDir, { recursive: true, force: true });
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(0));

const launched = await launchStore({
  args: ['--import', 'tsx', path.join(import.meta.dirname, 'e2e-server.ts')],
  // e2e-server.ts passes the store's report on only once the store is healthy (seeded).
  listenTimeoutMs: 300_000,
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: `https://127.0.0.1:${tlsPort}`,
    // nginx on loopback is the one proxy in front of the store.
    TRUST_PROXY: '127.0.0.1',
  },
}).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  return finish(1);
});
const appPort = launched.port;
const store = launched.child;
children.push(store);
store.on('exit', (code) => {
  if (!stopping) {
    console.error(`the store exited (${code})`);
    stop(1);
  }
});

/** nginx from deploy/nginx.conf, terminating TLS in front of the store. */
async function startProxy() {
  const nginx = await startNginx(
    {
      runDir,
      listen: `127.0.0.1:${tlsPort} ssl http2`,
      redirectListen: `127.0.0.1:${redirectPort}`,
      httpsPort: `:${tlsPort}`,
      ...selfSignedCertificate(runDir),
      appPorts: [appPort],
    },
    tlsPort,
  );
  children.push(nginx);
  nginx.on('exit', (code) => {
    if (!stopping) {
      console.error(`nginx exited (${code})`);
      stop(1);
    }
  });
}

await startProxy().then(
  () => console.log(`store ready on https://127.0.0.1:${tlsPort}`),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    stop(1);
  },
);
