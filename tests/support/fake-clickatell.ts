/**
 * A local stand-in for Clickatell's One API, following its documented shapes
 * (https://docs.clickatell.com/channels/one-api/):
 *   POST /v1/message   Authorization: <API key>
 *     {messages: [{channel: 'sms', to: '2348031234567', content}]}
 *   -> 202 {messages: [{apiMessageId, accepted: true, to, error: null}], error: null}
 *   A wrong key -> 401 {messages: [], error: {code: 1, description: 'Invalid or missing Integration API Key'}}
 *   A number that is not a mobile number -> 202 with accepted: false and an error.
 * Every text accepted is kept in `texts`; `behaviour` makes the provider fail (HTTP 503) or hang.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { send } from './fake-http';

export interface FakeText {
  to: string;
  content: string;
  apiMessageId: string;
}

export interface FakeClickatell {
  baseUrl: string;
  apiKey: string;
  texts: FakeText[];
  calls: { method: string; path: string; auth: string | null; contentType: string | null; body: unknown }[];
  /** `down`: every send answers 503; `hangMs`: the answer comes this late. */
  behaviour: { down: boolean; hangMs: number };
  /** Resolves once `n` texts were accepted (or rejects after `timeoutMs`). */
  waitForTexts(n: number, timeoutMs?: number): Promise<FakeText[]>;
  close(): Promise<void>;
}

export async function startFakeClickatell(apiKey = `ck_${randomBytes(12).toString('hex')}`): Promise<FakeClickatell> {
  const texts: FakeText[] = [];
  const calls: FakeClickatell['calls'] = [];
  const behaviour = { down: false, hangMs: 0 };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // left null
    }
    calls.push({ method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization ?? null, contentType: req.headers['content-type'] ?? null, body });
    if (behaviour.hangMs) await new Promise((r) => setTimeout(r, behaviour.hangMs));
    if (req.method !== 'POST' || req.url !== '/v1/message') return send(res, 404, { error: { code: 404, description: 'Not found' } });
    if (behaviour.down) return send(res, 503, { error: { code: 503, description: 'Service unavailable' } });
    if (req.headers.authorization !== apiKey) return send(res, 401, { messages: [], error: { code: 1, description: 'Invalid or missing Integration API Key' } });
    if (!Array.isArray(body?.messages)) return send(res, 400, { messages: [], error: { code: 2, description: 'Invalid or missing parameter: messages' } });
    const answers = body.messages.map((m: any) => {
      const to = String(m?.to ?? '');
      if (m?.channel !== 'sms' || typeof m?.content !== 'string' || !/^\d{10,15}$/.test(to)) {
        return { apiMessageId: null, accepted: false, to, error: { code: 105, description: 'Invalid destination address' } };
      }
      const apiMessageId = randomBytes(16).toString('hex');
      texts.push({ to, content: m.content, apiMessageId });
      return { apiMessageId, accepted: true, to, error: null };
    });
    send(res, 202, { messages: answers, error: null });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    texts,
    calls,
    behaviour,
    async waitForTexts(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (texts.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} texts, got ${texts.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return texts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
