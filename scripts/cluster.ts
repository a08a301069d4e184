/**
 * Several app servers on one PostgreSQL behind nginx, on this machine's loopback:
 *
 *   npm run cluster -- --servers 3            # nginx on 127.0.0.1:8080
 *   npm run cluster -- --servers 3 --port 8081 --build
 *
 * Builds the store when dist/ is missing (always with --build), uses $DATABASE_URL or creates a
 * fresh database on 127.0.0.1:5432 (dropped at the end), starts N servers on free loopback ports
 * with TRUST_PROXY set for nginx, and nginx (Debian's package, installed with apt-get when
 * missing) in the foreground from deploy/nginx.conf with its own prefix, pid and logs in a
 * temporary directory. Ctrl-C (or SIGTERM) stops them all. `--duration S` stops after S seconds.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createFreshDatabase } from '../tests/support/pg';
import { freePort, launchStore } from '../tests/support/store-process';
import { ensureNginx, selfSignedCertificate, startNginx } from './nginx';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { freePort };

export function ensureBuild(always = false): void {
  if (!always && existsSync(path.join(root, 'dist/server/entry.mjs'))) return;
  console.log('building the store (astro build)');
  const res = spawnSync('npx', ['astro', 'build'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('astro build failed');
}

export interface AppServer {
  index: number;
  port: number;
  url: string;
  child: ChildProcess;
  alive(): boolean;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  /** SIGTERM: a graceful stop (drains in-flight requests). */
  terminate(): Promise<void>;
  /** Starts it again on the same port (after a kill or terminate). */
  restart(): Promise<void>;
}

export interface Cluster {
  url: string;
  databaseUrl: string;
  servers: AppServer[];
  nginxDir: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  servers: number;
  port?: number;
  build?: boolean;
  databaseUrl?: string;
  /** Extra environment for the app servers. */
  env?: Record<string, string>;
  /** Where server logs go: inherit (the terminal) or a function. */
  onLog?: (server: number, text: string) => void;
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  ensureNginx();
  ensureBuild(opts.build);
  const listenPort = opts.port ?? 8080;
  const siteUrl = `http://127.0.0.1:${listenPort}`;
  const fresh = opts.databaseUrl ? undefined : await createFreshDatabase('store_cluster');
  const databaseUrl = opts.databaseUrl ?? fresh!.url;
  const runDir = mkdtempSync(path.join(tmpdir(), 'store-cluster-'));
  const cleanups: (() => Promise<void> | void)[] = [];

  /**
   * An app server: each binds a port of its own choosing (PORT=0, reported over IPC), since the
   * public origin is nginx's; a restart takes its old port back, which nginx's upstream names, and
   * fails at once if someone else has it. Ready means its health answers with its own instance id.
   */
  const launchApp = (index: number, port = 0) => {
    const dataDir = path.join(runDir, `app${index}`);
    mkdirSync(dataDir, { recursive: true });
    return launchStore({
      args: [path.join(root, 'dist/server/entry.mjs')],
      cwd: root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        PUBLIC_SITE_URL: siteUrl,
        // nginx on loopback is the one proxy: the shopper's address is the X-Forwarded-For it writes.
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        ...opts.env,
      },
      onOutput: opts.onLog && ((t: string) => opts.onLog!(index, t)),
    });
  };

  const servers: AppServer[] = [];
  const stopChild = async (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  const startApp = async (index: number): Promise<AppServer> => {
    const launched = await launchApp(index);
    const server: AppServer = {
      index,
      port: launched.port,
      url: launched.url,
      child: launched.child,
      alive: () => server.child.exitCode === null && server.child.signalCode === null,
      kill: () => stopChild(server.child, 'SIGKILL'),
      terminate: () => stopChild(server.child, 'SIGTERM'),
      async restart() {
        await stopChild(server.child, 'SIGKILL');
        server.child = (await launchApp(index, server.port)).child;
      },
    };
    servers.push(server);
    return server;
  };
  // The first server migrates and seeds the database; the others start once it is ready.
  cleanups.push(async () => {
    await Promise.all(servers.map((s) => stopChild(s.child, 'SIGTERM')));
  });
  try {
    await startApp(0);
    const rest = await Promise.allSettled(Array.from({ length: opts.servers - 1 }, (_, i) => startApp(i + 1)));
    const failed = rest.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    servers.sort((a, b) => a.index - b.index);
  } catch (err) {
    for (const c of cleanups.reverse()) await c();
    await fresh?.drop();
    throw err;
  }
  const ports = servers.map((s) => s.port);

  // deploy/nginx.conf's store server on plain http (the load test's loopback); its TLS settings
  // need a certificate all the same, and its redirect server a port.
  let nginx: ChildProcess;
  try {
    nginx = await startNginx(
      { runDir, listen: `127.0.0.1:${listenPort}`, redirectListen: `127.0.0.1:${await freePort()}`, httpsPort: '', ...selfSignedCertificate(runDir), appPorts: ports },
      listenPort,
    );
  } catch (err) {
    for (const c of cleanups.reverse()) await c();
    await fresh?.drop();
    rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
  cleanups.push(() => stopChild(nginx, 'SIGQUIT'));
  // Should this process die without stopping the cluster, nothing is left running.
  process.once('exit', () => {
    for (const child of [nginx, ...servers.map((s) => s.child)]) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  let stopped = false;
  return {
    url: siteUrl,
    databaseUrl,
    servers,
    nginxDir: runDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const c of cleanups.reverse()) await c();
      await fresh?.drop();
      // nginx's error log outlives the run (upstream failures, "no live upstreams").
      try {
        mkdirSync(path.join(root, '.bench'), { recursive: true });
        writeFileSync(path.join(root, '.bench/nginx-error.log'), readFileSync(path.join(runDir, 'error.log')));
      } catch {
        // no log
      }
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

// ---- the command
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      servers: { type: 'string', default: '3' },
      port: { type: 'string', default: '8080' },
      build: { type: 'boolean', default: false },
      duration: { type: 'string' },
    },
  });
  const cluster = await startCluster({
    servers: Number(values.servers),
    port: Number(values.port),
    build: values.build,
    databaseUrl: process.env.DATABASE_URL || undefined,
  });
  console.log(`store on ${cluster.url} (nginx) -> ${cluster.servers.map((s) => s.url).join(', ')}`);
  console.log(`database ${cluster.databaseUrl}; nginx files in ${cluster.nginxDir}; Ctrl-C stops everything`);
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`stopping (${why})`);
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (values.duration) setTimeout(() => void stop(`${values.duration} s elapsed`), Number(values.duration) * 1000);
}
