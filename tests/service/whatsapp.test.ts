import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/server/accounts/tables';
import type { Logger } from '@/lib/server/infra/log';
import { createWhatsAppCloudSender } from '@/lib/server/notifications/whatsapp-cloud';
import type { Services } from '@/lib/server/services';
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp';
import { DRIVERS, servicesFor } from '../support/services';

const order = { id: '00000000-0000-4000-8000-0000000000aa', trackingNumber: 'ML-WA-1' };

describe('the WhatsApp Cloud API adapter against a local fake', () => {
  let fake: FakeWhatsApp;
  beforeAll(async () => (fake = await startFakeWhatsApp()));
  afterAll(() => fake?.close());

  const sender = (token = fake.token) => createWhatsAppCloudSender({ token, phoneNumberId: fake.phoneNumberId, baseUrl: fake.baseUrl, version: 'v23.0' });

  it('sends a template with its body parameters as the Cloud API documents, and answers its message id', async () => {
    const { messageId } = await sender().send({ to: '+2348031234567', template: 'order_on_its_way', params: ['ML-1', 'https://shop.example/order-details/1'], body: 'unused' });
    expect(messageId).toMatch(/^wamid\./);
    const call = fake.calls.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', path: `/v23.0/${fake.phoneNumberId}/messages`, auth: `Bearer ${fake.token}` });
    expect(call.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '2348031234567',
      type: 'template',
      template: {
        name: 'order_on_its_way',
        language: { code: 'en' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'ML-1' }, { type: 'text', text: 'https://shop.example/order-details/1' }] }],
      },
    });
  });

  it('says why WhatsApp refused (a bad token, a number not on WhatsApp) and when it is down', async () => {
    await expect(sender('EAAwrong').send({ to: '+2348031234567', template: 'order_confirmed', params: ['ML-1'], body: '' })).rejects.toMatchObject({
      code: 'invalid',
      message: 'WhatsApp refused the message: 190 Invalid OAuth access token.',
    });
    fake.behaviour.notOnWhatsApp.add('2348030000000');
    await expect(sender().send({ to: '+2348030000000', template: 'order_confirmed', params: ['ML-1'], body: '' })).rejects.toMatchObject({ message: 'WhatsApp refused the message: 131026 Message Undeliverable.' });
    fake.behaviour.down = true;
    await expect(sender().send({ to: '+2348031234567', template: 'order_confirmed', params: ['ML-1'], body: '' })).rejects.toMatchObject({ code: 'unavailable' });
    fake.behaviour.down = false;
    await expect(createWhatsAppCloudSender({ token: 't', phoneNumberId: '1', baseUrl: 'http://127.0.0.1:9', version: 'v23.0' }).send({ to: '+2348031234567', template: 'order_confirmed', params: [], body: '' })).rejects.toMatchObject({
      code: 'unavailable',
    });
  });
});

for (const driver of DRIVERS) {
  describe(`order updates by WhatsApp (Cloud API fake) or text on ${driver}`, () => {
    let services: Services;
    let close: () => Promise<void>;
    let database: { close(): Promise<void> };
    let fake: FakeWhatsApp;
    let logged = '';

    beforeAll(async () => {
      fake = await startFakeWhatsApp();
      // Keeps what is logged (errors flattened to their message) to read the recorded failures.
      const keep = (msg: string, fields?: Record<string, unknown>) => void (logged += `${msg} ${JSON.stringify(fields, (_k, v: unknown) => (v instanceof Error ? v.message : v))}\n`);
      const log: Logger = { debug: keep, info: keep, warn: keep, error: keep, child: () => log };
      ({ services, close, database } = await servicesFor(driver, { seed: false, env: { ...fake.env, PUBLIC_SITE_URL: 'https://shop.example' }, log }));
    }, 120_000);
    afterAll(async () => {
      const end = database.close.bind(database);
      database.close = () => end().then(() => new Promise((r) => setTimeout(r, 300)));
      await close?.();
      await fake?.close();
    });

    const shopper = async (email: string, phoneNumber: string) => {
      const [u] = await services.db.insert(users).values({ firstName: 'Ada', lastName: 'Obi', email, passwordHash: 'x', phoneNumber, country: 'nigeria', verifiedAt: new Date() }).returning();
      return u!;
    };

    it('sends each order event by the channel the shopper chose: WhatsApp templates, texts, or nothing', async () => {
      const ada = await shopper(`ada.${driver}@example.com`, '+2348031111111');
      expect(await services.accounts.updatesChannel(ada)).toBe('none');
      await services.notifications.orderUpdate(order, ada.id, 'placed');
      expect(fake.messages).toEqual([]);
      expect(await services.textOutbox.listAll('+2348031111111')).toEqual([]);

      expect(await services.accounts.setUpdatesChannel(ada, 'whatsapp')).toBe('whatsapp');
      for (const event of ['placed', 'pending', 'processed', 'delivered']) await services.notifications.orderUpdate(order, ada.id, event);
      expect(fake.messages.map((m) => [m.to, m.template, m.language, m.params])).toEqual([
        ['2348031111111', 'order_confirmed', 'en', ['ML-WA-1']],
        // Processed is "Ready to ship": "on its way" waits for the courier's pick-up (delivery/notices.ts).
        ['2348031111111', 'order_delivered', 'en', ['ML-WA-1']],
      ]);
      expect(await services.textOutbox.list('+2348031111111')).toEqual([]);
      // The courier's updates go through the same function.
      expect(await services.notifications.notifyShopper(ada.id, 'order_out_for_delivery', { order: 'ML-WA-1', rider: 'Tunde', rider_phone: '+2348035550000' })).toBe('whatsapp');
      expect(fake.messages.at(-1)).toMatchObject({ template: 'order_out_for_delivery', params: ['ML-WA-1', 'Tunde', '+2348035550000'] });

      expect(await services.accounts.setUpdatesChannel(ada, 'text')).toBe('text');
      const before = fake.messages.length;
      expect(await services.notifications.notifyShopper(ada.id, 'order_delivered', { order: 'ML-WA-1' })).toBe('text');
      expect(fake.messages).toHaveLength(before);
      expect((await services.textOutbox.list('+2348031111111')).map((t) => t.text)).toEqual(['Maison Luxe: your order ML-WA-1 has been delivered.']);

      expect(await services.accounts.setUpdatesChannel(ada, 'none')).toBe('none');
      expect(await services.notifications.notifyShopper(ada.id, 'order_delivered', { order: 'ML-WA-1' })).toBe('not-chosen');
      expect(await services.textOutbox.list('+2348031111111')).toHaveLength(1);
    });

    it('sends a failed WhatsApp message once as a text instead, and records the failure', async () => {
      const bola = await shopper(`bola.${driver}@example.com`, '+2348032222222');
      await services.accounts.setUpdatesChannel(bola, 'whatsapp');
      fake.behaviour.notOnWhatsApp.add('2348032222222');
      logged = '';
      expect(await services.notifications.notifyShopper(bola.id, 'order_on_its_way', { order: 'ML-WA-2', link: 'https://shop.example/order-details/2' })).toBe('text-after-whatsapp');
      expect((await services.textOutbox.list('+2348032222222')).map((t) => t.text)).toEqual(['Maison Luxe: your order ML-WA-2 is on its way. Follow it: https://shop.example/order-details/2']);
      expect(logged).toContain('shopper update on whatsapp failed; sending it as a text instead');
      expect(logged).toContain('131026 Message Undeliverable.');

      // WhatsApp down: one text again, never two; the choice stays WhatsApp for next time.
      fake.behaviour.notOnWhatsApp.delete('2348032222222');
      fake.behaviour.down = true;
      expect(await services.notifications.notifyShopper(bola.id, 'order_delivered', { order: 'ML-WA-2' })).toBe('text-after-whatsapp');
      fake.behaviour.down = false;
      expect(await services.textOutbox.list('+2348032222222')).toHaveLength(2);
      expect(await services.accounts.updatesChannel(bola)).toBe('whatsapp');
      expect(await services.notifications.notifyShopper(bola.id, 'order_delivered', { order: 'ML-WA-2' })).toBe('whatsapp');
      expect(await services.textOutbox.list('+2348032222222')).toHaveLength(2);
    });

    it('ends WhatsApp updates for the accounts on a number that sent STOP, and only those that chose WhatsApp', async () => {
      const chidi = await shopper(`chidi.${driver}@example.com`, '+2348033333333');
      const other = await shopper(`other.${driver}@example.com`, '+2348034444444');
      const texter = await shopper(`texter.${driver}@example.com`, '+2348033333333');
      await services.accounts.setUpdatesChannel(chidi, 'whatsapp');
      await services.accounts.setUpdatesChannel(other, 'whatsapp');
      await services.accounts.setUpdatesChannel(texter, 'text');
      expect(await services.accounts.stopWhatsApp('+2348033333333')).toEqual([chidi.id]);
      expect(await services.accounts.updatesChannel(chidi)).toBe('none');
      expect(await services.accounts.updatesChannel(other)).toBe('whatsapp');
      expect(await services.accounts.updatesChannel(texter)).toBe('text');
      expect(await services.notifications.notifyShopper(chidi.id, 'order_delivered', { order: 'ML-WA-3' })).toBe('not-chosen');
    });

    it('refuses WhatsApp or texts to an account without a mobile number they can reach', async () => {
      const odd = await shopper(`odd.${driver}@example.com`, '+44 20 7946 0958');
      await expect(services.accounts.setUpdatesChannel(odd, 'whatsapp')).rejects.toMatchObject({ code: 'invalid', message: 'Add a valid mobile number in your profile to get WhatsApp messages.' });
      expect(await services.accounts.updatesChannel(odd)).toBe('none');
    });
  });
}

describe('the dev outbox keeps WhatsApp messages with the number\'s texts', () => {
  it('records a WhatsApp message as the shopper reads it, with its template and parameters', async () => {
    const { services, close } = await servicesFor('pglite', { seed: false });
    try {
      expect(services.config.whatsapp).toBe('outbox');
      const [u] = await services.db.insert(users).values({ firstName: 'Ada', lastName: 'Obi', email: 'outbox@example.com', passwordHash: 'x', phoneNumber: '+27821234567', country: 'south_africa', verifiedAt: new Date() }).returning();
      await services.accounts.setUpdatesChannel(u!, 'whatsapp');
      await services.notifications.orderUpdate(order, u!.id, 'placed');
      expect(await services.textOutbox.listAll('+27821234567')).toEqual([
        { to: '+27821234567', text: 'Maison Luxe: your order ML-WA-1 has been placed.', createdAt: expect.any(String), channel: 'whatsapp', template: 'order_confirmed', params: ['ML-WA-1'] },
      ]);
    } finally {
      await close();
    }
  });
});
