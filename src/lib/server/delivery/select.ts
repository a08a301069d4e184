import { DEFAULT_MARKET, marketOfCurrency, type MarketCode } from '@/lib/domain/markets';
import type { Config } from '@/lib/server/infra/config';
import type { BookingMemo } from './courier-http';
import type { Lockers } from './lockers';
import type { Courier, CourierName } from './port';
import { createDemoLockers } from './demo-lockers';
import { createPudoLockers } from './pudo';
import { createPudoCourier } from './pudo-courier';
import { createShipbubbleCourier } from './shipbubble';
import { createShiplogicCourier } from './shiplogic';

type CourierConfig = Pick<
  Config,
  | 'couriers'
  | 'SHIPBUBBLE_API_KEY'
  | 'SHIPBUBBLE_WEBHOOK_SECRET'
  | 'SHIPBUBBLE_BASE_URL'
  | 'SHIPBUBBLE_CATEGORY_ID'
  | 'SHIPLOGIC_API_KEY'
  | 'SHIPLOGIC_ACCESS_KEY_ID'
  | 'SHIPLOGIC_SECRET_ACCESS_KEY'
  | 'SHIPLOGIC_AWS_REGION'
  | 'SHIPLOGIC_WEBHOOK_SECRET'
  | 'SHIPLOGIC_BASE_URL'
  | 'SHIPLOGIC_TRACKING_URL'
>;

type LockersConfig = Pick<Config, 'lockersZA' | 'PUDO_API_KEY' | 'PUDO_BASE_URL' | 'PUDO_TRACKING_URL'>;

export interface CourierDeps {
  /** The store's own courier for a market (staff type the events). */
  manual: (market: MarketCode) => Courier;
  /** Where a market's adapter remembers its bookings by the store's key (default: in the process). */
  memo?: (market: MarketCode) => BookingMemo;
  fetch?: typeof fetch;
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Each market's courier as configured (COURIER_NG, COURIER_ZA); configuration has checked the keys. */
export function selectCouriers(config: CourierConfig, { manual, memo, fetch }: CourierDeps): Record<MarketCode, Courier> {
  const ng: Courier =
    config.couriers.NG.name === 'shipbubble'
      ? createShipbubbleCourier({
          apiKey: required(config.SHIPBUBBLE_API_KEY, 'SHIPBUBBLE_API_KEY'),
          webhookSecret: config.SHIPBUBBLE_WEBHOOK_SECRET ?? null,
          baseUrl: config.SHIPBUBBLE_BASE_URL,
          categoryId: config.SHIPBUBBLE_CATEGORY_ID,
          memo: memo?.('NG'),
          fetch,
        })
      : manual('NG');
  const za: Courier =
    config.couriers.ZA.name === 'shiplogic'
      ? createShiplogicCourier({
          auth: config.SHIPLOGIC_API_KEY
            ? { apiKey: config.SHIPLOGIC_API_KEY }
            : {
                accessKeyId: required(config.SHIPLOGIC_ACCESS_KEY_ID, 'SHIPLOGIC_ACCESS_KEY_ID'),
                secretAccessKey: required(config.SHIPLOGIC_SECRET_ACCESS_KEY, 'SHIPLOGIC_SECRET_ACCESS_KEY'),
                region: config.SHIPLOGIC_AWS_REGION,
                service: 'execute-api',
              },
          webhookSecret: config.SHIPLOGIC_WEBHOOK_SECRET ?? null,
          baseUrl: config.SHIPLOGIC_BASE_URL,
          trackingUrl: config.SHIPLOGIC_TRACKING_URL,
          memo: memo?.('ZA'),
          fetch,
        })
      : manual('ZA');
  return { NG: ng, ZA: za };
}

/**
 * The couriers' lockers each market offers at checkout (LOCKERS_ZA; demo lockers by
 * default in demo mode); a market absent offers none.
 */
export function selectLockers(config: LockersConfig, deps: { fetch?: typeof fetch } = {}): Partial<Record<MarketCode, Lockers>> {
  if (config.lockersZA === 'demo') return { ZA: createDemoLockers() };
  return config.lockersZA === 'pudo' ? { ZA: createPudoLockers({ apiKey: required(config.PUDO_API_KEY, 'PUDO_API_KEY'), baseUrl: config.PUDO_BASE_URL, fetch: deps.fetch }) } : {};
}

/**
 * The couriers that book parcels to their own lockers rather than a market's doors
 * (LOCKERS_ZA=pudo: PUDO books its lockers' parcels); none otherwise (demo lockers go with the
 * market's courier).
 */
export function selectLockerCouriers(config: LockersConfig, deps: { memo?: BookingMemo; fetch?: typeof fetch } = {}): Courier[] {
  if (config.lockersZA !== 'pudo') return [];
  return [createPudoCourier({ apiKey: required(config.PUDO_API_KEY, 'PUDO_API_KEY'), baseUrl: config.PUDO_BASE_URL, trackingUrl: config.PUDO_TRACKING_URL ?? null, memo: deps.memo, fetch: deps.fetch })];
}

/** Who books an order's delivery: the locker's own courier when it has one configured, else the market's. */
export function deliveryCourier(order: { currency: string; locker?: { courier: string } | null }, couriers: Record<MarketCode, Courier>, lockerCouriers: readonly Courier[]): CourierName {
  const own = order.locker ? lockerCouriers.find((c) => c.name === order.locker!.courier) : undefined;
  return own?.name ?? couriers[marketOfCurrency(order.currency)?.code ?? DEFAULT_MARKET].name;
}
