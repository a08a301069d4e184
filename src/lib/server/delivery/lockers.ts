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
  latitude: number;
  longitude: number;
  kind: 'locker' | 'kiosk';
  /** From `near`, when it gave coordinates; null otherwise. */
  distanceKm: number | null;
}

/** Where the shopper is: coordinates when known, else the town of the delivery address. */
export type Near = { latitude: number; longitude: number } | { city: string };

export interface Lockers {
  readonly name: 'pudo';
  /** The points nearest `near` (by distance, or those in the town by name), at most `limit`. */
  lockers(near: Near, limit?: number): Promise<Locker[]>;
}

/** Great-circle distance in km. */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/**
 * The points nearest `near` from a courier's whole list: by distance from coordinates, else those
 * in the delivery address's town by name (distance unknown). One rule for PUDO's list and the demo's.
 */
export function nearestPoints(points: readonly Omit<Locker, 'distanceKm'>[], near: Near, limit: number): Locker[] {
  if ('latitude' in near) {
    return points
      .map((p) => ({ ...p, distanceKm: Math.round(distanceKm(near, p) * 10) / 10 }))
      .sort((a, b) => a.distanceKm - b.distanceKm)
      .slice(0, limit);
  }
  const town = near.city.trim().toLowerCase();
  return points
    .filter((p) => p.city.toLowerCase() === town)
    .sort((a, b) => a.name.localeCompare(b.name))
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
