import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '@/lib/domain/errors';
import { createPudoLockers } from '@/lib/server/delivery/pudo';
import { startFakePudo, type FakePudo } from '../support/fake-pudo';

describe('PUDO lockers behind the lockers port (against a local fake of its API)', () => {
  let fake: FakePudo;
  beforeAll(async () => {
    fake = await startFakePudo();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('lists the lockers nearest the shopper, nearest first, with the distance', async () => {
    const pudo = createPudoLockers({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    // Parktown North, Johannesburg.
    const near = await pudo.lockers({ latitude: -26.1420, longitude: 28.0300 }, 3);
    expect(near.map((p) => p.id)).toEqual(['CG54', 'CG12', 'CG77']);
    expect(near[0]).toMatchObject({ name: 'Rosebank Mall', address: '50 Bath Ave, Rosebank', city: 'Johannesburg', kind: 'locker' });
    expect(near[0]!.distanceKm).toBeCloseTo(1.2, 0);
    expect(near[2]).toMatchObject({ kind: 'kiosk' });
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/lockers-data', auth: `Bearer ${fake.apiKey}` });
  });

  it('lists a town\'s lockers by name when the address has no coordinates, and keeps the list for a while', async () => {
    let t = 0;
    const pudo = createPudoLockers({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, cacheMs: 1000, clock: () => t });
    const before = fake.calls.length;
    expect((await pudo.lockers({ place: ' johannesburg ' })).map((p) => p.name)).toEqual(['Rosebank Mall', 'Sandton City']);
    expect((await pudo.lockers({ place: 'Cape Town' })).map((p) => ({ id: p.id, d: p.distanceKm }))).toEqual([{ id: 'CG03', d: null }]);
    expect(await pudo.lockers({ place: 'Polokwane' })).toEqual([]);
    expect(fake.calls.length).toBe(before + 1);
    t = 1001;
    await pudo.lockers({ place: 'Pretoria' });
    expect(fake.calls.length).toBe(before + 2);
  });

  it('is unavailable when PUDO is down or the key is refused', async () => {
    fake.behaviour.status = 500;
    try {
      const err = await createPudoLockers({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }).lockers({ place: 'Pretoria' }).catch((e: unknown) => e);
      expect((err as AppError).code).toBe('unavailable');
    } finally {
      fake.behaviour.status = 200;
    }
    const wrong = await createPudoLockers({ apiKey: 'nope', baseUrl: fake.baseUrl }).lockers({ place: 'Pretoria' }).catch((e: unknown) => e);
    expect((wrong as AppError).code).toBe('unavailable');
  });
});
