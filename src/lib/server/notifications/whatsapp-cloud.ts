import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '@/lib/domain/errors';
import { TEMPLATE_LANGUAGE } from '@/lib/domain/order-updates';
import { WhatsAppRefused, type WhatsAppSender } from './port';
import { fill, message } from '@/lib/domain/messages';

/**
 * The WhatsApp Business Platform's Cloud API
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages):
 *   POST {base}/{version}/{phone-number-id}/messages   Authorization: Bearer <token>
 *     {messaging_product: 'whatsapp', recipient_type: 'individual', to: '2348031234567', type: 'template',
 *      template: {name, language: {code}, components: [{type: 'body', parameters: [{type: 'text', text}]}]}}
 *   -> 200 {messaging_product, contacts: [{input, wa_id}], messages: [{id: 'wamid.…'}]}
 *   -> 4xx {error: {message, type, code, error_subcode?, fbtrace_id}}
 * Numbers go in international form without the +.
 */
const sendResponse = z.object({ messages: z.array(z.object({ id: z.string() }).loose()).min(1) }).loose();
const errorResponse = z.object({ error: z.object({ message: z.string().optional(), code: z.union([z.number(), z.string()]).optional() }).loose() }).loose();

export interface WhatsAppCloudOptions {
  token: string;
  phoneNumberId: string;
  /** https://graph.facebook.com (tests: a local fake). */
  baseUrl: string;
  /** The Graph API version, e.g. v23.0. */
  version: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createWhatsAppCloudSender(opts: WhatsAppCloudOptions): WhatsAppSender {
  const doFetch = opts.fetch ?? fetch;
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(opts.version)}/${encodeURIComponent(opts.phoneNumberId)}/messages`;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  return {
    name: 'cloud',
    async send({ to, template, params }) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: to.replace(/^\+/, ''),
            type: 'template',
            template: {
              name: template,
              language: { code: TEMPLATE_LANGUAGE },
              components: params.length ? [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }] : [],
            },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        throw new AppError('unavailable', message('whatsapp-unreachable'));
      }
      const answer: unknown = await res.json().catch(() => null);
      if (res.status >= 500) throw new AppError('unavailable', fill('whatsapp-unavailable', res.status));
      const sent = sendResponse.safeParse(answer);
      if (!res.ok || !sent.success) {
        const error = errorResponse.safeParse(answer);
        const reason = error.success ? [error.data.error.code, error.data.error.message].filter((p) => p !== undefined).join(' ') : '';
        throw new WhatsAppRefused(reason || fill('provider-http-status', res.status));
      }
      return { messageId: sent.data.messages[0]!.id };
    },
  };
}

/**
 * Whether `header` (X-Hub-Signature-256: `sha256=<hex>`) is the HMAC-SHA256 of the raw body with
 * the app secret, as Meta signs every webhook call.
 */
export function whatsappSignatureValid(raw: string, header: string | null, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(raw, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/**
 * The part of a webhook call the store reads: messages shoppers sent to the store's number
 * (field `messages`; status updates and everything else pass through unread).
 */
export const whatsappWebhookEvent = z.object({
  object: z.string(),
  entry: z
    .array(
      z
        .object({
          changes: z
            .array(
              z
                .object({
                  field: z.string(),
                  value: z
                    .object({
                      messages: z
                        .array(z.object({ from: z.string().regex(/^\d{6,15}$/), type: z.string(), text: z.object({ body: z.string().max(4096) }).loose().optional() }).loose())
                        .optional(),
                    })
                    .loose(),
                })
                .loose(),
            )
            .default([]),
        })
        .loose(),
    )
    .default([]),
});

/** The text messages of a webhook call: who sent them (E.164) and what they said. */
export function inboundTexts(event: z.infer<typeof whatsappWebhookEvent>): { from: string; body: string }[] {
  return event.entry.flatMap((e) =>
    e.changes.flatMap((c) => (c.field === 'messages' ? (c.value.messages ?? []) : []).flatMap((m) => (m.type === 'text' && m.text ? [{ from: `+${m.from}`, body: m.text.body }] : []))),
  );
}
