import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

/**
 * Sends a POST over a raw socket: headers, then `bytes` of body (declared with Content-Length or sent
 * chunked), stopping early if the server has already answered. With `holdAfter`, only that many body
 * bytes are sent and the rest is held back: a server that reads the whole body before answering never
 * answers (status 0 after 15 s). Resolves with the status line's code and the body, and how many body
 * bytes had been written when the answer came.
 */
function send(
  url: string,
  opts: { bytes: number; type: string; chunked?: boolean; accept?: string; holdAfter?: number },
): Promise<{ status: number; body: string; written: number }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let written = 0;
    let answered = false;
    const finish = () => {
      const [head = '', ...rest] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      let body = rest.join('\r\n\r\n');
      if (/transfer-encoding: chunked/i.test(head)) body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '');
      resolve({ status, body: body.trim(), written });
    };
    socket.on('data', (d) => {
      answered = true;
      answer += d.toString('utf8');
      if (/\r\n0\r\n\r\n$/.test(answer) || /content-length: (\d+)/i.test(answer)) {
        const m = /content-length: (\d+)/i.exec(answer);
        const bodyStart = answer.indexOf('\r\n\r\n');
        if (!m || (bodyStart >= 0 && Buffer.byteLength(answer.slice(bodyStart + 4)) >= Number(m[1]))) socket.destroy();
      }
    });
    const giveUp = setTimeout(() => socket.destroy(), 15_000);
    socket.on('close', () => {
      clearTimeout(giveUp);
      finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
    const framing = opts.chunked ? 'transfer-encoding: chunked' : `content-length: ${opts.bytes}`;
    socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: ${opts.type}\r\naccept: ${opts.accept ?? 'application/json'}\r\n${framing}\r\n\r\n`);
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const pump = () => {
      const upTo = Math.min(opts.bytes, opts.holdAfter ?? opts.bytes);
      while (written < upTo && !answered && !socket.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, upTo - written));
        written += piece.length;
        const ok = socket.write(opts.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        if (!ok) return void socket.once('drain', pump);
      }
      if (opts.chunked && upTo === opts.bytes && !answered && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

for (const driver of ['pglite', 'pg'] as const) {
  describe(`request bodies on ${driver}`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(driver);
    });
    afterAll(async () => server?.stop());

    it('refuses a 20 MB body with 413 before reading it', async () => {
      // 20 MB declared, 256 KB sent: the answer can only come if the server refuses on the declared size.
      // (Racing the whole 20 MB against the answer failed on a loaded CI machine: the client can write
      // it all into socket buffers before the answer is read.)
      const res = await send(server.baseUrl + '/api/v1/user-auth/login', {
        bytes: 20 * 1024 * 1024,
        holdAfter: 256 * 1024,
        type: 'application/json',
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ status: false, message: 'The request is too large.' });
    });

    it('cuts a chunked JSON body off at 64 KB', async () => {
      const res = await send(server.baseUrl + '/api/v1/user-auth/login', { bytes: 200 * 1024, type: 'application/json', chunked: true });
      expect(res.status).toBe(413);
      const small = await send(server.baseUrl + '/api/v1/user-auth/login', { bytes: 60 * 1024, type: 'application/json', chunked: true });
      expect(small.status).toBe(400); // within the limit: read, and found not to be JSON
    });

    it('gives uploads 5 MB and webhooks 1 MB', async () => {
      expect((await send(server.baseUrl + '/api/v1/user-auth/upload-image', { bytes: 6 * 1024 * 1024, type: 'multipart/form-data; boundary=x' })).status).toBe(413);
      // within the upload limit the route itself answers (no session: 401)
      const upload = await send(server.baseUrl + '/api/v1/user-auth/upload-image', { bytes: 1024 * 1024, type: 'multipart/form-data; boundary=x' });
      expect(upload.status).toBe(401);
      expect((await send(server.baseUrl + '/api/v1/payments/paystack/webhook', { bytes: 2 * 1024 * 1024, type: 'application/json' })).status).toBe(413);
      expect((await send(server.baseUrl + '/api/v1/cart/add-to-cart', { bytes: 100 * 1024, type: 'application/json' })).status).toBe(413);
    });

    it('answers a browser form post that is too large with a page', async () => {
      const res = await send(server.baseUrl + '/api/v1/user-auth/upload-image', { bytes: 6 * 1024 * 1024, type: 'multipart/form-data; boundary=x', accept: 'text/html' });
      expect(res.status).toBe(413);
      expect(res.body).toContain('The request is too large.');
    });

    it('refuses non-JSON bodies to JSON endpoints with 415', async () => {
      for (const type of ['text/plain', 'application/xml']) {
        const res = await fetch(server.baseUrl + '/api/v1/user-auth/login', {
          method: 'POST',
          headers: { 'content-type': type },
          body: JSON.stringify({ email: 'demo@maisonluxe.ng', password: 'x' }),
        });
        expect(res.status, type).toBe(415);
        expect(((await res.json()) as { message: string }).message).toMatch(/JSON/);
      }
    });
  });
}
