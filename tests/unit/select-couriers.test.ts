import { describe, expect, it } from 'vitest';
import type { MarketCode } from '@/lib/domain/markets';
import { parseConfig } from '@/lib/server/infra/config';
import type { Courier } from '@/lib/server/delivery/port';
import { selectCouriers, selectPickupPoints } from '@/lib/server/delivery/select';

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
    expect(selectPickupPoints(parseConfig({ PICKUP_POINTS_ZA: 'none' }))).toEqual({});
    expect(Object.keys(selectPickupPoints(parseConfig({})))).toEqual(['ZA']);
    expect(parseConfig({}).pickupPointsZA).toBe('demo');
    expect(() => parseConfig({ PICKUP_POINTS_ZA: 'pudo' })).toThrow(/PUDO_API_KEY: is required when PICKUP_POINTS_ZA=pudo/);
    const points = selectPickupPoints(parseConfig({ PICKUP_POINTS_ZA: 'pudo', PUDO_API_KEY: 'k' }));
    expect(Object.keys(points)).toEqual(['ZA']);
    expect(points.ZA!.name).toBe('pudo');
  });
});
