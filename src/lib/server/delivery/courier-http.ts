import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { AppError, Invalid } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { CourierRefused, WebhookRejected, type Booking } from './port';

/**
 * What the real couriers' adapters share: one way to call a courier's JSON API (unreachable or
 * 5xx: AppError 'unavailable', safe to retry; any other refusal: CourierRefused with the courier's
 * own words), the HMAC check of signed webhooks, and the memo of bookings by the store's key.
 */

export interface CourierHttp {
  /** Answers the parsed JSON body of a 2xx answer; throws as above otherwise. */
  json(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown>;
  /** Fetches bytes (a label PDF) from an absolute URL the courier gave; no credentials are sent. */
  bytes(url: string): Promise<Uint8Array>;
}

export interface CourierHttpOptions {
  baseUrl: string;
  /** Credentials for one request (a Bearer key, or a signature over the request: ShipLogic's SigV4). */
  headers: (request: { method: string; url: URL; body: string }) => Record<string, string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The courier's own words from an error body: {message}, {error}, {errors:[…]}. */
function saidIn(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as { message?: unknown; error?: unknown; errors?: unknown };
  const errors = Array.isArray(b.errors) ? b.errors.filter((e): e is string => typeof e === 'string') : [];
  const parts = [typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : null, ...errors].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}

export function courierHttp(opts: CourierHttpOptions): CourierHttp {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 20_000;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw new AppError('unavailable', message('courier-unreachable'));
    }
  }

  return {
    async json(method, path, body) {
      const url = base + path;
      const payload = body === undefined ? '' : JSON.stringify(body);
      const res = await send(url, {
        method,
        headers: { ...opts.headers({ method, url: new URL(url), body: payload }), accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : payload,
      });
      const parsed: unknown = await res.json().catch(() => null);
      // A courier that is down, or a key it no longer takes, is not a refusal of this parcel:
      // the booking is retried once the courier (or the configuration) is back.
      if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 429) {
        throw new AppError('unavailable', message('courier-unavailable'));
      }
      if (!res.ok) throw new CourierRefused(saidIn(parsed) ?? fill('provider-http-status', res.status));
      return parsed;
    },
    async bytes(url) {
      const res = await send(url, { method: 'GET' });
      if (res.status >= 500) throw new AppError('unavailable', message('courier-unavailable'));
      if (!res.ok) throw new CourierRefused(fill('courier-label-unfetched', res.status));
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

/** HMAC of the raw body, hex; compared in constant time. */
export function hmacHex(algorithm: 'sha256' | 'sha512', key: string, rawBody: string): string {
  return createHmac(algorithm, key).update(rawBody).digest('hex');
}

export function sameHex(given: string | null, expected: string): boolean {
  if (!given || !/^[a-f0-9]+$/i.test(given) || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given.toLowerCase(), 'hex'), Buffer.from(expected, 'hex'));
}

/** An event id from an event's content, for couriers that give none: a replay hashes alike. */
export function contentId(courier: string, ...parts: (string | number | null | undefined)[]): string {
  return `${courier}:${createHash('sha256').update(parts.map((p) => String(p ?? '')).join('\0')).digest('hex').slice(0, 32)}`;
}

/**
 * Bookings the adapter has made, by the store's key. The booking worker gives one backed by its
 * shipments table; the default keeps them for the life of the process. Asked again with a key it
 * knows, an adapter answers the remembered booking instead of asking the courier for a parcel.
 */
export interface BookingMemo {
  get(key: string): Promise<Booking | null>;
  put(key: string, booking: Booking): Promise<void>;
}

export function memoryBookingMemo(): BookingMemo {
  const bookings = new Map<string, Booking>();
  return {
    get: async (key) => bookings.get(key) ?? null,
    put: async (key, booking) => void bookings.set(key, booking),
  };
}

/** Days from `from` to a date the courier gives (never negative). */
export function daysUntil(from: Date, to: string | null | undefined): number | null {
  if (!to) return null;
  const t = Date.parse(to);
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.ceil((t - from.getTime()) / 86_400_000));
}

/** A signed webhook's body, read against the courier's schema; `what` names it in the refusal. */
export function webhookJson<T extends z.ZodType>(rawBody: string, schema: T, what: string): z.infer<T> {
  const body = schema.safeParse(signedWebhookJson(rawBody));
  if (!body.success) throw new WebhookRejected(fill('courier-webhook-not-event', what));
  return body.data;
}

/**
 * A signed webhook's body as JSON. Called after the signature matched: a body that is not JSON is
 * the courier's bad input (400, which it does not retry forever), not a forgery (401).
 */
export function signedWebhookJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new Invalid(fill('courier-webhook-rejected', message('courier-webhook-not-json')));
  }
}

/** The kind a webhook body names (`event`), for the log of one the store ignores. */
export function webhookKind(json: unknown): string {
  const kind = (json as { event?: unknown } | null)?.event;
  return typeof kind === 'string' && kind ? kind.slice(0, 80) : 'unknown';
}
