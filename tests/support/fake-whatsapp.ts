/**
 * A local stand-in for the WhatsApp Business Platform's Cloud API, following its documented shapes
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages):
 *   POST /{version}/{phone-number-id}/messages   Authorization: Bearer <token>
 *     {messaging_product: 'whatsapp', to: '2348031234567', type: 'template',
 *      template: {name, language: {code}, components: [{type: 'body', parameters: [{type: 'text', text}]}]}}
 *   -> 200 {messaging_product: 'whatsapp', contacts: [{input, wa_id}], messages: [{id: 'wamid.…'}]}
 *   A wrong token -> 401 {error: {message, type: 'OAuthException', code: 190}}
 *   A template it does not know -> 404 {error: {message, code: 132001}}
 *   A number listed in `notOnWhatsApp` -> 400 {error: {message, code: 131026}} (message undeliverable)
 * Every message accepted is kept in `messages`; `behaviour.down` answers 503. It also signs webhook
 * calls as Meta does (`signedWebhook`), with the app secret.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { send } from './fake-http';

export interface FakeWhatsAppMessage {
  to: string;
  template: string;
  language: string;
  params: string[];
  id: string;
}

export interface FakeWhatsApp {
  baseUrl: string;
  token: string;
  phoneNumberId: string;
  appSecret: string;
  verifyToken: string;
  /** The env a store needs to use this fake. */
  env: Record<string, string>;
  messages: FakeWhatsAppMessage[];
  calls: { method: string; path: string; auth: string | null; body: any }[];
  behaviour: { down: boolean; notOnWhatsApp: Set<string> };
  /** A webhook call's body and headers, signed with `secret` (the app secret unless given). */
  signedWebhook(body: unknown, secret?: string): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

/** The templates registered (and approved) for the store's WhatsApp Business account. */
const APPROVED = new Set(['order_confirmed', 'order_on_its_way', 'order_out_for_delivery', 'order_delivered']);

export async function startFakeWhatsApp(): Promise<FakeWhatsApp> {
  const token = `EAA${randomBytes(16).toString('hex')}`;
  const phoneNumberId = '106540352242922';
  const appSecret = randomBytes(16).toString('hex');
  const verifyToken = `verify-${randomBytes(6).toString('hex')}`;
  const messages: FakeWhatsAppMessage[] = [];
  const calls: FakeWhatsApp['calls'] = [];
  const behaviour = { down: false, notOnWhatsApp: new Set<string>() };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: any = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // left null
    }
    calls.push({ method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization ?? null, body });
    if (req.method !== 'POST' || !/^\/v\d+\.\d+\/\d+\/messages$/.test(req.url ?? '')) return send(res, 404, { error: { message: 'Unknown path', code: 100 } });
    if (behaviour.down) return send(res, 503, { error: { message: 'Service temporarily unavailable', code: 2 } });
    if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
    if (req.url !== `/v23.0/${phoneNumberId}/messages`) return send(res, 400, { error: { message: 'Unsupported post request.', code: 100 } });
    if (body?.messaging_product !== 'whatsapp' || body?.type !== 'template' || !/^\d{8,15}$/.test(String(body?.to ?? ''))) {
      return send(res, 400, { error: { message: '(#100) Invalid parameter', code: 100 } });
    }
    const name = String(body.template?.name ?? '');
    if (!APPROVED.has(name)) return send(res, 404, { error: { message: `(#132001) Template name does not exist in the translation`, code: 132001 } });
    if (behaviour.notOnWhatsApp.has(body.to)) return send(res, 400, { error: { message: 'Message Undeliverable.', code: 131026 } });
    const params = (body.template.components ?? []).flatMap((c: any) => (c.type === 'body' ? c.parameters.map((p: any) => String(p.text)) : []));
    const id = `wamid.${randomBytes(12).toString('hex')}`;
    messages.push({ to: body.to, template: name, language: String(body.template.language?.code ?? ''), params, id });
    send(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    token,
    phoneNumberId,
    appSecret,
    verifyToken,
    env: {
      WHATSAPP: 'cloud',
      WHATSAPP_TOKEN: token,
      WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
      WHATSAPP_APP_SECRET: appSecret,
      WHATSAPP_VERIFY_TOKEN: verifyToken,
      WHATSAPP_BASE_URL: baseUrl,
    },
    messages,
    calls,
    behaviour,
    signedWebhook(payload, secret = appSecret) {
      const body = JSON.stringify(payload);
      return { body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` } };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A webhook call carrying one text a shopper sent to the store's number, as Meta sends it. */
export function inboundText(from: string, text: string, phoneNumberId = '106540352242922') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Ada' }, wa_id: from }],
              messages: [{ from, id: `wamid.${randomBytes(8).toString('hex')}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}
