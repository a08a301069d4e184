import type { MarketCode } from './markets';

/**
 * The couriers' lockers (PUDO lockers in South Africa) as checkout offers them and an order keeps
 * them: pure, no I/O, no zod (the checkout island reads it). The list itself comes from the
 * courier through the lockers port; the fee for the choice is the market's, as staff set it.
 */

/** A locker the shopper chose, as the order keeps it (and the courier is booked to). */
export interface ChosenLocker {
  /** Whose point it is: the network the parcel is booked to. */
  courier: 'pudo';
  /** The courier's code for the point (PUDO's locker code). */
  id: string;
  name: string;
  /** One line, as the shopper reads it. */
  address: string;
  city: string;
  /** From the shopper's address when the courier's list could tell; null otherwise. */
  distanceKm: number | null;
}

/** A point as the checkout lists it: its code, its name, and where it is in words (with the distance when known). */
export interface OfferedLocker {
  id: string;
  name: string;
  where: string;
}

/**
 * What the checkout offers in a market: the points nearest the delivery address and the choice's
 * fee. Its words are written on the server, so the checkout's script carries none of them.
 */
export interface LockerOffer {
  courier: 'pudo';
  /** Minor units of the market's currency, as the server charges it. */
  feeMinor: number;
  /** The fee as the page shows it ("R 65"). */
  feeText: string;
  /** The choice's name (LOCKER_CHOICE) and what it means for the shopper. */
  title: string;
  note: string;
  /** The radio that keeps delivery to the address. */
  door: string;
  points: OfferedLocker[];
  /** The suburb, town or postcode the shopper searched (null: the delivery address's). */
  search: string | null;
  /** Said when the search found no locker. */
  empty: string | null;
}

/** What collecting from a locker means, as the checkout says it. */
export const LOCKER_NOTE = 'Your parcel waits in the locker; collect it with the code sent to your phone.';

/** How many points the checkout lists: enough to find one on the way, few enough to read at 360 px. */
export const LOCKERS_LISTED = 5;

/**
 * The fee for delivery to a courier's locker in a market without one set by staff (minor
 * units): one flat price, since a locker parcel is one size band. Staff set their own per market
 * (market settings); null here: the market has no locker network to offer.
 */
export const DEFAULT_LOCKER_FEE_MINOR: Record<MarketCode, number | null> = { NG: null, ZA: 6_500 };

/** The choice's name at checkout and on the order. */
export const LOCKER_CHOICE = 'Collect from a PUDO locker';

/** A point's code as forms and the API send it. */
export const LOCKER_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** The distance as a shopper reads it ("850 m", "2.4 km"); '' when unknown. */
export function distanceText(km: number | null): string {
  if (km === null) return '';
  return km < 1 ? `${Math.max(10, Math.round((km * 1000) / 10) * 10)} m` : `${km.toFixed(1)} km`;
}

/** The point in one line, as the order page, mails and the packing slip print it. */
export function lockerLine(p: Pick<ChosenLocker, 'name' | 'address' | 'city'>): string {
  return [`PUDO locker ${p.name}`, p.address, p.city].filter((s) => s.trim() !== '').join(', ');
}

/** How the order's mail says where it goes: the locker by its name and address (the courier's code for it is for staff). */
export function lockerDelivery(p: Pick<ChosenLocker, 'name' | 'address' | 'city'>): string {
  return `${LOCKER_CHOICE}: ${[p.name, p.address, p.city].filter((s) => s.trim() !== '').join(', ')}. Collect it with the code sent to your phone`;
}
