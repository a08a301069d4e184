import { z } from 'zod';

/**
 * The couriers' lockers (and kiosks) a shopper may choose at checkout instead of a door: a
 * small port of its own, since only some markets' couriers have them (PUDO lockers in South
 * Africa). The parcel is then booked to the point's address with the courier as usual.
 */

export interface Locker {
  /** The courier's code for the point (what a booking names). */
  id: string;
  name: string;
  /** One line, as the shopper reads it. */
  address: string;
  city: string;
  /** Its postcode, where the courier's list gives one ('' otherwise). */
  postcode: string;
  latitude: number;
  longitude: number;
  kind: 'locker' | 'kiosk';
  /** From `near`, when it gave coordinates; null otherwise. */
  distanceKm: number | null;
}

/**
 * Where the shopper is: coordinates when known, else a place as people write it (a suburb, a town,
 * a mall's name: the delivery address's city, or what the shopper searched) and a postcode.
 */
export type Near = { latitude: number; longitude: number } | { place: string; postcode?: string | undefined };

export interface Lockers {
  readonly name: 'pudo';
  /** The points nearest `near` (by distance, or those at the place, nearest its best match first), at most `limit`. */
  lockers(near: Near, limit?: number): Promise<Locker[]>;
  /** One point by the courier's code, or null when the courier has none by it. */
  locker(id: string): Promise<Locker | null>;
}

/** Great-circle distance in km. */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Lower case, letters and digits only, one space between words: "Sandton  City," and "sandton city" compare equal. */
const words = (s: string) => ` ${s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;

/**
 * How well a point answers a place: its postcode (3), a suburb or name in its name or address, as
 * whole words (2: "Sandton" finds "Sandton City", "Rosebank" the mall on Bath Avenue), or its
 * town (1); 0 when none.
 */
function placeScore(p: Omit<Locker, 'distanceKm'>, place: string, postcode: string): number {
  if (postcode && p.postcode.replace(/\s+/g, '') === postcode) return 3;
  const wanted = words(place);
  if (wanted.trim() === '') return 0;
  if (words(`${p.name} ${p.address}`).includes(wanted)) return 2;
  return words(p.city) === wanted ? 1 : 0;
}

/**
 * The points nearest `near` from a courier's whole list: by distance from coordinates; else those
 * that answer the place (placeScore), nearest the best of them first, since the list carries each
 * point's coordinates (the shopper's own are unknown, so no distance is shown). One rule for PUDO's
 * list and the demo's.
 */
export function nearestPoints(points: readonly Omit<Locker, 'distanceKm'>[], near: Near, limit: number): Locker[] {
  if ('latitude' in near) {
    return points
      .map((p) => ({ ...p, distanceKm: Math.round(distanceKm(near, p) * 10) / 10 }))
      .sort((a, b) => a.distanceKm - b.distanceKm)
      .slice(0, limit);
  }
  const postcode = (near.postcode ?? '').replace(/\s+/g, '');
  const scored = points.map((p) => ({ p, score: placeScore(p, near.place, postcode) })).filter((x) => x.score > 0);
  if (scored.length === 0) return [];
  const best = scored.reduce((a, b) => (b.score > a.score || (b.score === a.score && b.p.name.localeCompare(a.p.name) < 0) ? b : a)).p;
  return scored
    .map((x) => x.p)
    .sort((a, b) => distanceKm(best, a) - distanceKm(best, b) || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((p) => ({ ...p, distanceKm: null }));
}

/** A chosen point as a payment's snapshot carries it to the order (read back through zod). */
export const chosenLockerSchema = z.object({
  courier: z.literal('pudo'),
  id: z.string().min(1).max(40),
  name: z.string().max(200),
  address: z.string().max(300),
  city: z.string().max(120),
  distanceKm: z.number().nullable(),
});
