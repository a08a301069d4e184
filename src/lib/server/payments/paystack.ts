import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError, PaymentFailed } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { DEFAULT_MARKET, marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import { ONLINE_CHANNELS, type OnlineChannel } from '@/lib/domain/payment-methods';
import type { PaymentProvider, Refund, Verification, VerificationStatus } from './port';

/** Paystack's channel name as one of ours (qr, mobile_money… are not offered: null). */
export function channelOf(name: string | null | undefined): OnlineChannel | null {
  return name && (ONLINE_CHANNELS as readonly string[]).includes(name) ? (name as OnlineChannel) : null;
}

/** Paystack's envelope: {status, message, data}. Only the fields we use are checked. */
const initializeResponse = z.object({
  status: z.boolean(),
  message: z.string().optional(),
  data: z.object({ authorization_url: z.url(), access_code: z.string().optional(), reference: z.string() }).optional(),
});

const verifyResponse = z.object({
  status: z.boolean(),
  message: z.string().optional(),
  data: z
    .object({
      status: z.string(),
      reference: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      channel: z.string().nullish(),
    })
    .optional(),
});

/** POST /refund answers {status, message, data:{id, amount, status, transaction:{reference}...}}. */
const refundResponse = z.object({
  status: z.boolean(),
  message: z.string().optional(),
  data: z.object({ id: z.union([z.number(), z.string()]), amount: z.number().int() }).loose().optional(),
});

/** GET /refund answers {status, message, data:[{id, amount, status, merchant_note, customer_note, ...}], meta}. */
const refundListResponse = z.object({
  status: z.boolean(),
  message: z.string().optional(),
  data: z
    .array(
      z
        .object({
          id: z.union([z.number(), z.string()]),
          amount: z.number().int(),
          status: z.string().nullish(),
          merchant_note: z.string().nullish(),
          customer_note: z.string().nullish(),
        })
        .loose(),
    )
    .optional(),
});

/** The note a keyed refund carries, the one thing Paystack keeps of the store's key. */
export const refundNote = (key: string) => `refund ${key}`;

/** Refund states that gave nothing back: a refund found in one of them is not the store's refund made. */
const REFUND_NOT_MADE = new Set(['failed', 'reversed']);

const KNOWN_STATUSES: VerificationStatus[] = ['success', 'failed', 'abandoned', 'pending', 'reversed'];

export interface PaystackOptions {
  /** One account for every currency (as before markets; tests), or the default market's when `secretKeys` is given. */
  secretKey?: string;
  /** Each market's Paystack account: a payment goes through the account of its currency's market. */
  secretKeys?: Partial<Record<MarketCode, string>>;
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The real Paystack API (https://paystack.com/docs/api/transaction/). */
export function createPaystackProvider(opts: PaystackOptions): PaymentProvider {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;

  /** The secret key of the account that settles `currency` (the default market's when none is given). */
  function keyFor(currency: string | undefined): string {
    const market = currency ? marketOfCurrency(currency.toUpperCase())?.code : DEFAULT_MARKET;
    const key = (market && opts.secretKeys?.[market]) || (market === DEFAULT_MARKET || !opts.secretKeys ? opts.secretKey : undefined);
    if (!key) throw new PaymentFailed(fill('payments-unavailable', String(currency)));
    return key;
  }

  async function call(path: string, init: RequestInit, secretKey: string): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(base + path, {
        ...init,
        headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new AppError('unavailable', message('provider-unreachable'));
    }
    const body = await res.json().catch(() => null);
    if (res.status >= 500) throw new AppError('unavailable', message('provider-unavailable'));
    return body;
  }

  /**
   * The refund of `reference` made with the store's `key` (its note), if Paystack has one that gave
   * money back. https://paystack.com/docs/api/refund/#list: GET /refund?transaction=… answers the
   * transaction's refunds. An answer that cannot be read is no answer (unavailable): refunding
   * again then could pay twice.
   */
  async function findKeyedRefund(reference: string, key: string, secretKey: string): Promise<Refund | null> {
    const query = new URLSearchParams({ transaction: reference, perPage: '100' });
    const parsed = refundListResponse.safeParse(await call(`/refund?${query}`, { method: 'GET' }, secretKey));
    if (!parsed.success || !parsed.data.status || !parsed.data.data) throw new AppError('unavailable', message('provider-unavailable'));
    const note = refundNote(key);
    const found = parsed.data.data.find((r) => (r.merchant_note === note || r.customer_note === note) && !REFUND_NOT_MADE.has(r.status ?? ''));
    return found ? { refundId: String(found.id), amountMinor: found.amount } : null;
  }

  return {
    name: 'paystack',
    async initialize({ reference, email, amountMinor, currency, callbackUrl, channels }) {
      const body = initializeResponse.safeParse(
        await call('/transaction/initialize', {
          method: 'POST',
          body: JSON.stringify({ email, amount: amountMinor, currency, reference, callback_url: callbackUrl, channels }),
        }, keyFor(currency)),
      );
      if (!body.success || !body.data.status || !body.data.data) {
        throw new PaymentFailed(message('payment-init-refused'));
      }
      return { authorizationUrl: body.data.data.authorization_url };
    },
    async verify(reference, currency): Promise<Verification> {
      const parsed = verifyResponse.safeParse(await call(`/transaction/verify/${encodeURIComponent(reference)}`, { method: 'GET' }, keyFor(currency)));
      if (!parsed.success || !parsed.data.status || !parsed.data.data) return { status: 'unknown', amountMinor: 0, currency: '' };
      const d = parsed.data.data;
      if (d.reference !== reference) return { status: 'unknown', amountMinor: 0, currency: '' };
      const status = (KNOWN_STATUSES as string[]).includes(d.status) ? (d.status as VerificationStatus) : 'unknown';
      return { status, amountMinor: d.amount, currency: d.currency, channel: channelOf(d.channel) };
    },
    async refund(reference, amountMinor, currency, key): Promise<Refund> {
      const secretKey = keyFor(currency);
      // Paystack takes no idempotency key for refunds: a keyed refund whose answer may have been lost
      // (a timeout, a process killed meanwhile) is looked for by its note first and answered from
      // what Paystack holds, so it is never made twice. Unreachable here: nothing is sent.
      if (key) {
        const made = await findKeyedRefund(reference, key, secretKey);
        if (made) return made;
      }
      // https://paystack.com/docs/api/refund/#create: transaction (id or reference), amount in subunits (default: all).
      // The store's key goes in merchant_note, so the refund can be found again, and staff can match it on the dashboard.
      const body = { transaction: reference, ...(amountMinor === undefined ? {} : { amount: amountMinor }), ...(key ? { merchant_note: refundNote(key) } : {}) };
      const parsed = refundResponse.safeParse(
        await call('/refund', {
          method: 'POST',
          body: JSON.stringify(body),
        }, secretKey),
      );
      if (!parsed.success || !parsed.data.status || !parsed.data.data) {
        const said = parsed.success ? parsed.data.message : undefined;
        throw new PaymentFailed(said ? fill('refund-refused-because', said) : message('refund-refused'));
      }
      return { refundId: String(parsed.data.data.id), amountMinor: parsed.data.data.amount };
    },
  };
}

/** x-paystack-signature: HMAC-SHA512 of the raw body with the secret key, hex. Compared in constant time. */
export function paystackSignature(rawBody: string | Uint8Array, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

export function isValidPaystackSignature(rawBody: string | Uint8Array, signature: string | null, secretKey: string): boolean {
  if (!signature || !/^[a-f0-9]{128}$/i.test(signature)) return false;
  const expected = Buffer.from(paystackSignature(rawBody, secretKey), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The market whose Paystack account signed a webhook: every market's key is tried (each compared
 * in constant time, and all of them every time), null when none matches.
 */
export function paystackSignerOf(rawBody: string | Uint8Array, signature: string | null, secretKeys: Partial<Record<MarketCode, string>>): MarketCode | null {
  let signer: MarketCode | null = null;
  for (const [market, key] of Object.entries(secretKeys) as [MarketCode, string][]) {
    if (isValidPaystackSignature(rawBody, signature, key) && signer === null) signer = market;
  }
  return signer;
}

export const paystackWebhookEvent = z.object({
  event: z.string(),
  data: z.object({ reference: z.string().min(1).max(100) }).loose(),
});
