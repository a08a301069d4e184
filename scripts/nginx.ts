/**
 * Debian's nginx in the foreground with its own prefix, from the template deploy/nginx.conf: the
 * file shipped for live stores is the one the cluster (scripts/cluster.ts) and the TLS end-to-end
 * test (tests/support/tls-server.ts) run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NGINX = '/usr/sbin/nginx';
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

function apt(packages: string[]) {
  const asRoot = process.getuid?.() === 0;
  const run = (args: string[]) => spawnSync(asRoot ? args[0]! : 'sudo', asRoot ? args.slice(1) : args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['apt-get', 'update', '-qq']);
  return run(['apt-get', 'install', '-y', '-qq', ...packages]).status === 0;
}

/** Debian's nginx (and its brotli_static module when the archive has it); nothing else is downloaded. */
export function ensureNginx(): void {
  if (!existsSync(NGINX)) {
    console.log("installing Debian's nginx");
    if (!apt(['nginx-light']) && !apt(['nginx'])) throw new Error('could not install nginx with apt-get');
    if (!existsSync(BROTLI_MODULE)) apt(['libnginx-mod-http-brotli-static']);
  }
}

/** A self-signed certificate for localhost / 127.0.0.1 in `dir` (made with openssl, valid a day). */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const res = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '1', '-keyout', key, '-out', cert],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`openssl could not make a certificate: ${res.stderr}`);
  return { cert, key };
}

export interface NginxSite {
  /** Prefix: pid, logs, temporary bodies and the filled-in nginx.conf. */
  runDir: string;
  /** The store's server: "127.0.0.1:8443 ssl http2" (a live store: "443 ssl http2"), or plain "127.0.0.1:8080". */
  listen: string;
  /** The server that sends every request to https (a live store: 80). */
  redirectListen: string;
  /** ":8443" when https is not on 443, for the redirect's Location. */
  httpsPort: string;
  cert: string;
  key: string;
  /** The app servers' loopback ports. */
  appPorts: number[];
}

/** deploy/nginx.conf with its {{...}} placeholders filled in. */
export function nginxConfig(site: NginxSite): string {
  return readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8')
    .replaceAll('{{MODULES}}', existsSync(BROTLI_MODULE) ? `load_module ${BROTLI_MODULE};` : '')
    .replaceAll('{{BROTLI_STATIC}}', existsSync(BROTLI_MODULE) ? 'brotli_static on;' : '')
    .replaceAll('{{USER}}', process.getuid?.() === 0 ? 'user root;' : '')
    .replaceAll('{{RUN_DIR}}', site.runDir)
    .replaceAll('{{LISTEN}}', site.listen)
    .replaceAll('{{REDIRECT_LISTEN}}', site.redirectListen)
    .replaceAll('{{HTTPS_PORT}}', site.httpsPort)
    .replaceAll('{{CERT}}', site.cert)
    .replaceAll('{{CERT_KEY}}', site.key)
    .replaceAll('{{SERVERS}}', site.appPorts.map((p) => `server 127.0.0.1:${p} max_fails=2 fail_timeout=5s;`).join('\n    '))
    .replaceAll('{{CLIENT_DIR}}', path.join(root, 'dist/client'));
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * nginx writes its pid file only after it has bound every address it listens on: a pid file with
 * this nginx's pid means the ports are its own, not another process's that happens to answer there.
 */
function boundItsPorts(site: NginxSite, nginx: ChildProcess): boolean {
  try {
    return Number(readFileSync(path.join(site.runDir, 'nginx.pid'), 'utf8').trim()) === nginx.pid;
  } catch {
    return false;
  }
}

/**
 * Starts nginx in the foreground for `site` and waits until it has bound its addresses and `port`
 * takes connections; throws with nginx's error log when it does not start (a port taken: nginx
 * says "Address already in use" and exits).
 */
export async function startNginx(site: NginxSite, port: number): Promise<ChildProcess> {
  const confPath = path.join(site.runDir, 'nginx.conf');
  writeFileSync(confPath, nginxConfig(site));
  const errorLog = path.join(site.runDir, 'error.log');
  const nginx = spawn(NGINX, ['-p', site.runDir, '-c', confPath, '-e', errorLog, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const deadline = Date.now() + 10_000;
  while (!(boundItsPorts(site, nginx) && (await accepting(port)))) {
    if (nginx.exitCode !== null || Date.now() > deadline) {
      nginx.kill('SIGKILL');
      const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
      throw new Error(`nginx did not start on port ${port}:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return nginx;
}
