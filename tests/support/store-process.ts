/**
 * Starting the built store as a child process and knowing it is that child which answers.
 *
 * A port chosen by opening and closing port 0 can be taken by someone else before the child binds
 * it; whatever then answers /api/v1/health on that port is not ours. So the child is spawned with
 * an IPC channel: it reports the port it bound and its random instance id, or why it could not
 * listen, and exits (src/server/server.ts). The store is ready when its health answers 200 with
 * that instance id; another server's answer, or the child's exit, ends the wait at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { ListenReport } from '../../src/server/server';

/** A free loopback port now; someone else may bind it before you do (see launchStore). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** The child could not bind its port: someone else has it. A fresh port may do. */
export class AddressInUseError extends Error {}

export interface LaunchedStore {
  child: ChildProcess;
  /** The port the child bound (PORT=0: the one it picked). */
  port: number;
  /** http://127.0.0.1:port, where this child and no other answers. */
  url: string;
  /** The child's own random id, as its /api/v1/health answers it. */
  instance: string;
}

export interface LaunchOptions {
  /** The store's environment (PORT, HOST=127.0.0.1, PUBLIC_SITE_URL, …). */
  env: NodeJS.ProcessEnv;
  /** What node runs: the built entry by default; a wrapper that passes the store's reports on (tests/support/e2e-server.ts) works too. */
  args?: string[];
  cwd?: string;
  /** The child's stdout and stderr: passed through, or to this function. */
  onOutput?: (text: string) => void;
  /** How long it may take to listen: loading the store takes seconds. */
  listenTimeoutMs?: number;
  /** How long it may then take to answer health: seeding an empty store on a busy machine takes minutes. */
  healthTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function ended(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (exited(child)) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await done;
}

/**
 * Spawns the store and resolves once it listens and its /api/v1/health answers 200 with its own
 * instance id. Rejects (with the child stopped) when it exits or cannot listen first
 * (AddressInUseError when its port is taken), when another server answers there, or on timeout.
 */
export async function launchStore(opts: LaunchOptions): Promise<LaunchedStore> {
  const child = spawn(process.execPath, opts.args ?? [`${process.env.STORE_DIST ?? 'dist'}/server/entry.mjs`], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', opts.onOutput ? 'pipe' : 'inherit', opts.onOutput ? 'pipe' : 'inherit', 'ipc'],
  });
  if (opts.onOutput) {
    child.stdout?.setEncoding('utf8').on('data', opts.onOutput);
    child.stderr?.setEncoding('utf8').on('data', opts.onOutput);
  }
  const listenTimeoutMs = opts.listenTimeoutMs ?? 90_000;
  try {
    const { port, instance } = await new Promise<{ port: number; instance: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the store did not listen within ${listenTimeoutMs / 1000} s`)), listenTimeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        fn();
      };
      const onMessage = (report: ListenReport) => {
        if (report?.store === 'listening') settle(() => resolve(report));
        else if (report?.store === 'listen-failed') {
          const why = `the store could not listen: ${report.message}`;
          settle(() => reject(report.code === 'EADDRINUSE' ? new AddressInUseError(why) : new Error(why)));
        }
      };
      const onExit = (code: number | null, signal: string | null) => settle(() => reject(new Error(`the store exited (${code ?? signal}) before it listened`)));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + (opts.healthTimeoutMs ?? 300_000);
    while (!exited(child)) {
      if (Date.now() > deadline) throw new Error(`the store on ${url} did not become healthy in time`);
      try {
        // A store still opening its database answers once it has (the request waits for it).
        const res = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
        const body = (await res.json().catch(() => null)) as { data?: { instance?: string } } | null;
        const answered = body?.data?.instance;
        if (answered !== undefined && answered !== instance) throw new Error(`another server (instance ${answered}) answers on ${url}, not the store started (instance ${instance})`);
        if (res.ok) return { child, port, instance, url };
      } catch (err) {
        if (err instanceof Error && err.message.startsWith('another server')) throw err;
        // still starting
      }
      await sleep(200);
    }
    throw new Error(`the store on ${url} exited (${child.exitCode ?? child.signalCode}) before it was healthy`);
  } catch (err) {
    await ended(child);
    throw err;
  }
}
