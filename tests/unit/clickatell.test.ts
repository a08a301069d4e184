import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { createClickatellSender } from '@/lib/server/notifications/clickatell';
import { TextRefused } from '@/lib/server/notifications/port';
import { startFakeClickatell, type FakeClickatell } from '../support/fake-clickatell';

describe('the Clickatell adapter (against a local fake of its One API)', () => {
  let fake: FakeClickatell;
  beforeAll(async () => {
    fake = await startFakeClickatell();
  });
  afterAll(async () => {
    await fake?.close();
  });

  const rejection = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

  it('sends one SMS to the number in international form without the +, with the API key, and returns its id', async () => {
    const sender = createClickatellSender({ apiKey: fake.apiKey, baseUrl: `${fake.baseUrl}/` });
    const { messageId } = await sender.send({ to: '+27821234567', body: 'Maison Luxe: your order ML-1 has been placed.' });
    expect(messageId).toMatch(/^[0-9a-f]{32}$/);
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/message',
      auth: fake.apiKey,
      contentType: 'application/json',
      body: { messages: [{ channel: 'sms', to: '27821234567', content: 'Maison Luxe: your order ML-1 has been placed.' }] },
    });
    expect(fake.texts.at(-1)).toMatchObject({ to: '27821234567', apiMessageId: messageId });
  });

  it('throws TextRefused with the provider\'s reason when it refuses (a wrong key, a bad number)', async () => {
    const wrongKey = await rejection(createClickatellSender({ apiKey: 'nope', baseUrl: fake.baseUrl }).send({ to: '+2348031234567', body: 'x' }));
    expect(wrongKey).toBeInstanceOf(TextRefused);
    expect((wrongKey as Error).message).toBe('The SMS provider refused the text: Invalid or missing Integration API Key');
    const badNumber = await rejection(createClickatellSender({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }).send({ to: '+123', body: 'x' }));
    expect(badNumber).toBeInstanceOf(TextRefused);
    expect((badNumber as Error).message).toMatch(/Invalid destination address/);
  });

  it("throws AppError 'unavailable' when the provider fails, is too slow or cannot be reached", async () => {
    const sender = createClickatellSender({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 300 });
    fake.behaviour.down = true;
    const down = await rejection(sender.send({ to: '+2348031234567', body: 'x' }));
    fake.behaviour.down = false;
    expect(down).toBeInstanceOf(AppError);
    expect(down).toMatchObject({ code: 'unavailable', message: 'The SMS provider is not available (HTTP 503).' });
    fake.behaviour.hangMs = 1_000;
    const slow = await rejection(sender.send({ to: '+2348031234567', body: 'x' }));
    fake.behaviour.hangMs = 0;
    expect(slow).toMatchObject({ code: 'unavailable', message: 'The SMS provider could not be reached.' });
    const nowhere = await rejection(createClickatellSender({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_000 }).send({ to: '+2348031234567', body: 'x' }));
    expect(nowhere).toMatchObject({ code: 'unavailable' });
  });
});
