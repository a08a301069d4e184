import { z } from 'zod';
import { Forbidden, Invalid, NotFound, Unauthorized } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { isStopMessage } from '@/lib/domain/order-updates';
import { endpoint, json, readBodyLimited, readQuery } from '@/lib/server/infra/http';
import { inboundTexts, whatsappSignatureValid, whatsappWebhookEvent } from '@/lib/server/notifications/whatsapp-cloud';

/** Meta's webhook calls are small; anything much larger is not one. */
const MAX_BODY = 256 * 1024;

/** Only the Cloud API channel has a webhook: elsewhere the route is not there. */
function cloudConfig(locals: App.Locals): { appSecret: string; verifyToken: string } {
  const { config } = locals.services;
  if (config.whatsapp !== 'cloud' || !config.WHATSAPP_APP_SECRET || !config.WHATSAPP_VERIFY_TOKEN) throw new NotFound(message('not-found'));
  return { appSecret: config.WHATSAPP_APP_SECRET, verifyToken: config.WHATSAPP_VERIFY_TOKEN };
}

const challengeQuery = z.object({
  'hub.mode': z.literal('subscribe', { error: 'hub.mode must be subscribe' }),
  'hub.verify_token': z.string({ error: 'hub.verify_token is required' }).max(200),
  'hub.challenge': z.string({ error: 'hub.challenge is required' }).regex(/^[\w-]{1,200}$/, 'hub.challenge is not a challenge'),
});

/**
 * Meta verifies the webhook URL: GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…,
 * answered with the challenge (plain text) when the token is the store's WHATSAPP_VERIFY_TOKEN.
 */
export const GET = endpoint(async ({ locals, url }) => {
  const { verifyToken } = cloudConfig(locals);
  const query = readQuery(url, challengeQuery);
  if (query['hub.verify_token'] !== verifyToken) throw new Forbidden(message('whatsapp-verify-refused'));
  return new Response(query['hub.challenge'], { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
});

/**
 * Messages shoppers send to the store's WhatsApp number, signed with X-Hub-Signature-256 (HMAC-SHA256
 * of the raw body with the app secret). A "STOP" ends WhatsApp updates for the accounts on that
 * number; nothing is sent back. Everything else (status updates, other texts) is acknowledged unread.
 */
export const POST = endpoint(async ({ locals, request }) => {
  const { appSecret } = cloudConfig(locals);
  const raw = new TextDecoder().decode(await readBodyLimited(request, MAX_BODY));
  if (!whatsappSignatureValid(raw, request.headers.get('x-hub-signature-256'), appSecret)) {
    locals.log.warn('whatsapp webhook with a bad signature');
    throw new Unauthorized(message('webhook-signature-invalid'));
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Invalid(message('json-malformed'));
  }
  const event = whatsappWebhookEvent.safeParse(body);
  // Signed by Meta but in a shape the store does not read: acknowledged, so Meta does not retry it.
  if (!event.success) return json({ status: true, message: 'Ignored' });
  for (const { from, body: said } of inboundTexts(event.data)) {
    if (!isStopMessage(said)) continue;
    const stopped = await locals.services.accounts.stopWhatsApp(from);
    locals.log.info('whatsapp STOP received: updates on whatsapp ended', { accounts: stopped.length });
  }
  return json({ status: true, message: 'Received' });
});
