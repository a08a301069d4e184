import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

/** The client address the store used for a request, read from its request log. */
async function addressSeen(server: RunningServer, output: string[], forwardedFor?: string): Promise<string | undefined> {
  const marker = `/cart?probe=${Math.random().toString(36).slice(2)}`;
  await fetch(server.baseUrl + marker, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}, redirect: 'manual' });
  for (let i = 0; i < 20; i++) {
    const line = output.find((l) => l.includes('"msg":"request"') && l.includes('"path":"/cart"') && !l.includes('"seen"'));
    if (line) {
      output.splice(output.indexOf(line), 1);
      return JSON.parse(line).ip;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`client addresses behind a proxy on ${driver}`, () => {
    let server: RunningServer | undefined;
    afterEach(async () => {
      await server?.stop();
      server = undefined;
    });

    it('uses the socket address and ignores a forged X-Forwarded-For without TRUST_PROXY', async () => {
      const output: string[] = [];
      server = await startServer(driver, { LOG_LEVEL: 'info' }, { onOutput: (text) => output.push(...text.split('\n').filter(Boolean)) });
      expect(await addressSeen(server, output, '6.6.6.6')).toBe('127.0.0.1');
      expect(await addressSeen(server, output)).toBe('127.0.0.1');
    });

    it('takes the right-most untrusted X-Forwarded-For entry with TRUST_PROXY', async () => {
      const output: string[] = [];
      server = await startServer(driver, { LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1' }, { onOutput: (text) => output.push(...text.split('\n').filter(Boolean)) });
      // A client forging the left-hand entry; the proxy appended the address it saw.
      expect(await addressSeen(server, output, '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
      expect(await addressSeen(server, output, '6.6.6.6, 198.51.100.7, 127.0.0.1')).toBe('198.51.100.7');
    });
  });
}
