import { z } from 'zod';
import { courierHttp } from './courier-http';
import { CourierRefused } from './port';
import { nearestPoints, type Near, type Locker, type Lockers } from './lockers';
import { fill } from '@/lib/domain/messages';

/**
 * PUDO lockers (The Courier Guy's lockers, https://api-pudo.co.za, `Authorization: Bearer <API key>`
 * from the PUDO customer portal's Settings → API keys):
 *   GET /api/v1/lockers-data -> [{code, name, latitude, longitude, address, place:{town, postalCode}, type:{name}}]
 * The whole country's list is one answer of a few hundred lockers: it is kept for `cacheMs` and
 * searched here (ADR 0033 records the shapes assumed).
 */

export interface PudoOptions {
  apiKey: string;
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  cacheMs?: number;
  clock?: () => number;
}

const locker = z
  .object({
    code: z.string(),
    name: z.string(),
    latitude: z.coerce.number(),
    longitude: z.coerce.number(),
    address: z.string().nullish(),
    place: z.object({ town: z.string().nullish(), postalCode: z.union([z.string(), z.number()]).nullish() }).loose().nullish(),
    type: z.object({ name: z.string().nullish() }).loose().nullish(),
  })
  .loose();

export function createPudoLockers(opts: PudoOptions): Lockers {
  const http = courierHttp({ baseUrl: opts.baseUrl, headers: () => ({ authorization: `Bearer ${opts.apiKey}` }), fetch: opts.fetch, timeoutMs: opts.timeoutMs });
  const cacheMs = opts.cacheMs ?? 60 * 60_000;
  const now = opts.clock ?? Date.now;
  let cached: { at: number; points: Omit<Locker, 'distanceKm'>[] } | null = null;

  async function all(): Promise<Omit<Locker, 'distanceKm'>[]> {
    if (cached && now() - cached.at < cacheMs) return cached.points;
    const body = z.array(locker).safeParse(await http.json('GET', '/api/v1/lockers-data'));
    if (!body.success) throw new CourierRefused(fill('courier-answer-shape', 'PUDO', 'its lockers'));
    const points = body.data.map((l) => ({
      id: l.code,
      name: l.name,
      address: l.address ?? '',
      city: l.place?.town ?? '',
      postcode: l.place?.postalCode == null ? '' : String(l.place.postalCode),
      latitude: l.latitude,
      longitude: l.longitude,
      kind: /kiosk/i.test(l.type?.name ?? '') ? ('kiosk' as const) : ('locker' as const),
    }));
    cached = { at: now(), points };
    return points;
  }

  return {
    name: 'pudo',
    async lockers(near: Near, limit = 10) {
      return nearestPoints(await all(), near, limit);
    },
    async locker(id: string) {
      const found = (await all()).find((l) => l.id === id);
      return found ? { ...found, distanceKm: null } : null;
    },
  };
}
