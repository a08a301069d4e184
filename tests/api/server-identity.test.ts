import { describe, expect, it } from 'vitest';
import { PORT_ATTEMPTS, startServer, type Driver, type RunningServer } from '../support/server';
import { freePort } from '../support/store-process';

/** The instance id the server at `baseUrl` answers with. */
async function instanceAt(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/health`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { status: boolean; data: { database: string; instance: string } };
  expect(body).toMatchObject({ status: true, data: { database: 'up' } });
  return body.data.instance;
}

/** Starts `count` servers at once; stops the ones that started when any did not. */
async function startMany(count: number): Promise<RunningServer[]> {
  const results = await Promise.allSettled(Array.from({ length: count }, () => startServer('pglite')));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => s.stop()));
    throw failed.reason;
  }
  return started;
}

describe('test servers', () => {
  // Four, not more: each start is a whole store booting, and the machine has two cores.
  it('four started at once each answer as themselves, on ports of their own', async () => {
    const servers = await startMany(4);
    try {
      expect(new Set(servers.map((s) => s.instance)).size).toBe(4);
      expect(new Set(servers.map((s) => s.baseUrl)).size).toBe(4);
      for (const server of servers) expect(await instanceAt(server.baseUrl)).toBe(server.instance);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 180_000);

  for (const driver of ['pglite', 'pg'] as const satisfies Driver[]) {
    it(`on ${driver}, never takes the server already on its port for its own: it fails fast, or starts again on a fresh port`, async () => {
      const first = await startServer(driver);
      const taken = Number(new URL(first.baseUrl).port);
      try {
        // Every port it is given is taken: each child fails as soon as it tries to listen (it is
        // not waited for until a timeout), and the harness gives up with the bind error.
        const quiet = { onOutput: () => undefined };
        let tries = 0;
        const since = Date.now();
        await expect(startServer(driver, {}, { ...quiet, pickPort: async () => (tries++, taken) })).rejects.toThrow(/EADDRINUSE/);
        expect(tries).toBe(PORT_ATTEMPTS);
        expect((Date.now() - since) / tries).toBeLessThan(20_000);

        // The race as it happens: the port it chose is taken before its child binds it.
        let picks = 0;
        const second = await startServer(driver, {}, { ...quiet, pickPort: async () => (picks++ === 0 ? taken : freePort()) });
        try {
          expect(picks).toBe(2);
          expect(second.baseUrl).not.toBe(first.baseUrl);
          expect(second.instance).not.toBe(first.instance);
          expect(await instanceAt(second.baseUrl)).toBe(second.instance);
        } finally {
          await second.stop();
        }
        // The server that had the port is untouched.
        expect(await instanceAt(first.baseUrl)).toBe(first.instance);
      } finally {
        await first.stop();
      }
    }, 180_000);
  }
});
