import { z } from 'zod';
import { AppError } from '@/lib/domain/errors';
import { TextRefused, type TextSender } from './port';
import { fill, message } from '@/lib/domain/messages';

/**
 * Clickatell's One API (https://docs.clickatell.com/channels/one-api/), one account for Nigeria
 * and South Africa alike:
 *   POST {base}/v1/message   Authorization: <API key>
 *     {messages: [{channel: 'sms', to: '2348031234567', content}]}
 *   -> 202 {messages: [{apiMessageId, accepted, to, error}], error}
 * Numbers go in international form without the +.
 */
const errorShape = z.union([z.string(), z.object({ code: z.union([z.number(), z.string()]).optional(), description: z.string().optional() }).loose()]).nullish();

const sendResponse = z.object({
  messages: z.array(z.object({ apiMessageId: z.string().nullish(), accepted: z.boolean(), error: errorShape }).loose()).optional(),
  error: errorShape,
});

const describe = (e: z.infer<typeof errorShape>): string | undefined => (typeof e === 'string' ? e : (e?.description ?? (e?.code !== undefined ? String(e.code) : undefined)));

export interface ClickatellOptions {
  apiKey: string;
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createClickatellSender(opts: ClickatellOptions): TextSender {
  const doFetch = opts.fetch ?? fetch;
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/v1/message`;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  return {
    name: 'clickatell',
    async send({ to, body }) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { authorization: opts.apiKey, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ messages: [{ channel: 'sms', to: to.replace(/^\+/, ''), content: body }] }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        throw new AppError('unavailable', message('sms-unreachable'));
      }
      const parsed = sendResponse.safeParse(await res.json().catch(() => null));
      if (res.status >= 500) throw new AppError('unavailable', fill('sms-unavailable', res.status));
      const answer = parsed.success ? parsed.data.messages?.[0] : undefined;
      if (!res.ok || !answer?.accepted) {
        const reason = (parsed.success ? (describe(answer?.error) ?? describe(parsed.data.error)) : undefined) ?? fill('provider-http-status', res.status);
        throw new TextRefused(reason);
      }
      return { messageId: answer.apiMessageId ?? null };
    },
  };
}
