import { describe, expect, it } from 'vitest';
import type { MarketCode } from '@/lib/domain/markets';
import { parseConfig } from '@/lib/server/infra/config';
import type { Courier } from '@/lib/server/delivery/port';
import { deliveryCourier, selectCouriers, selectLockerCouriers, selectLockers } from '@/lib/server/delivery/select';

/** A stand-in for the store's manual courier: selection only reads its name. */
const manual = (market: MarketCode): Courier => ({ name: 'manual', market }) as unknown as Courier;

describe('selecting each market\'s courier', () => {
  it('gives the manual courier by default, and the configured real ones otherwise', () => {
    const byDefault = selectCouriers(parseConfig({}), { manual });
    expect([byDefault.NG.name, byDefault.ZA.name]).toEqual(['manual', 'manual']);
    expect(byDefault.ZA).toMatchObject({ market: 'ZA' });
    const real = selectCouriers(parseConfig({ COURIER_NG: 'shipbubble', SHIPBUBBLE_API_KEY: 'k', COURIER_ZA: 'shiplogic', SHIPLOGIC_API_KEY: 'k' }), { manual });
    expect([real.NG.name, real.ZA.name]).toEqual(['shipbubble', 'shiplogic']);
    const signed = selectCouriers(parseConfig({ COURIER_ZA: 'shiplogic', SHIPLOGIC_ACCESS_KEY_ID: 'AKIA1', SHIPLOGIC_SECRET_ACCESS_KEY: 's' }), { manual });
    expect(signed.ZA.name).toBe('shiplogic');
    const mixed = selectCouriers(parseConfig({ COURIER_ZA: 'shiplogic', SHIPLOGIC_API_KEY: 'k' }), { manual });
    expect([mixed.NG.name, mixed.ZA.name]).toEqual(['manual', 'shiplogic']);
  });

  it('offers PUDO lockers in South Africa only when configured, with its key; demo lockers by default in demo mode', () => {
    expect(selectLockers(parseConfig({ LOCKERS_ZA: 'none' }))).toEqual({});
    expect(Object.keys(selectLockers(parseConfig({})))).toEqual(['ZA']);
    expect(parseConfig({}).lockersZA).toBe('demo');
    expect(() => parseConfig({ LOCKERS_ZA: 'pudo' })).toThrow(/PUDO_API_KEY: is required when LOCKERS_ZA=pudo/);
    const points = selectLockers(parseConfig({ LOCKERS_ZA: 'pudo', PUDO_API_KEY: 'k' }));
    expect(Object.keys(points)).toEqual(['ZA']);
    expect(points.ZA!.name).toBe('pudo');
  });

  it('books locker parcels with PUDO only when PUDO lists the lockers; demo lockers go with the market\'s courier', () => {
    expect(selectLockerCouriers(parseConfig({}))).toEqual([]);
    expect(selectLockerCouriers(parseConfig({ LOCKERS_ZA: 'none' }))).toEqual([]);
    const pudo = selectLockerCouriers(parseConfig({ LOCKERS_ZA: 'pudo', PUDO_API_KEY: 'k' }));
    expect(pudo.map((c) => c.name)).toEqual(['pudo']);
    const couriers = selectCouriers(parseConfig({}), { manual });
    const locker = { courier: 'pudo' } as const;
    expect(deliveryCourier({ currency: 'ZAR', locker: locker }, couriers, pudo)).toBe('pudo');
    expect(deliveryCourier({ currency: 'ZAR', locker: null }, couriers, pudo)).toBe('manual');
    expect(deliveryCourier({ currency: 'ZAR', locker: locker }, couriers, [])).toBe('manual');
  });

  it('a live store with PUDO lockers needs the key and the address PUDO collects from', () => {
    const live = { STORE_MODE: 'live', LOCKERS_ZA: 'pudo' };
    expect(() => parseConfig(live)).toThrow(/PUDO_API_KEY: is required when LOCKERS_ZA=pudo/);
    expect(() => parseConfig({ ...live, PUDO_API_KEY: 'k' })).toThrow(/COURIER_COLLECTION_ZA: is required when STORE_MODE=live and LOCKERS_ZA=pudo/);
    expect(() => parseConfig({ ...live, PUDO_TRACKING_URL: 'https://track.example/' })).toThrow(/PUDO_TRACKING_URL: must contain \{ref\}/);
  });
});
