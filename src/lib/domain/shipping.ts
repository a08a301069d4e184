/**
 * The store's shipping configuration, in one place: the delivery speeds (advertised on
 * /delivery-options and chosen at checkout) with their fees, the pickup locations, and what
 * delivering abroad adds. Fees are integer minor units of the market's currency.
 */
import { STORE_NAME } from './brand';
import { countryName, type Country } from './geo';
import { MARKETS, type MarketCode } from './markets';
import type { CurrencyCode } from './money';

export type { Country } from './geo';
/** Delivered to the shopper (at the door, or to a locker), or collected by the shopper at the market's boutique. */
export const DELIVERY_OPTIONS = ['delivery', 'collect'] as const;
export type DeliveryOption = (typeof DELIVERY_OPTIONS)[number];

/**
 * The options as the API names them: collecting at the boutique is `pickup` there, as its clients
 * have always sent and read it (`collect` is taken too, cart-input.ts).
 */
export const API_DELIVERY_OPTIONS = ['delivery', 'pickup'] as const;
export type ApiDeliveryOption = (typeof API_DELIVERY_OPTIONS)[number];

export function apiDeliveryOption(option: DeliveryOption): ApiDeliveryOption {
  return option === 'collect' ? 'pickup' : option;
}

/** What a delivery outside the currency's own country adds to the speed's fee (checkout refuses it; the cart still prices it). */
const CROSS_BORDER_SURCHARGE_MINOR: Record<CurrencyCode, number> = { NGN: 3_000_000, ZAR: 33_000 };

/** An address as the cart, checkout and orders show it (also used for pickup stores). */
export interface AddressDto {
  id: string;
  /** Full name of the recipient, or the store's name for pickup. */
  name: string;
  country: Country;
  state: string;
  city: string;
  address: string;
  /** '' where the country needs no postcode and none was given. */
  zipCode: string;
  /** For the courier, when the shopper gave them (saved addresses; orders placed since they exist). */
  landmark?: string;
  deliveryPhone?: string;
}

/**
 * The store's boutiques, one per market, in one place: where orders are collected at checkout, the drop-off
 * point for returns, the Contact page, mails and the structured data (schema.org Store) all read
 * these facts.
 */
export interface Boutique {
  market: MarketCode;
  /** The pickup address as orders record it. */
  location: AddressDto;
  phone: string;
  email: string;
  /** Opening hours, as shoppers read them, and as schema.org's openingHours says them. */
  hours: string;
  openingHours: string;
  /** What to bring to collect an order. */
  pickupNote: string;
}

const PICKUP_NOTE = 'Bring your ID and the order number.';

export const BOUTIQUES: Record<MarketCode, Boutique> = {
  NG: {
    market: 'NG',
    location: {
      id: 'pickup-lagos',
      name: `${STORE_NAME} Ikoyi`,
      country: 'nigeria',
      state: 'Lagos',
      city: 'Ikoyi',
      address: '22 Awolowo Road',
      zipCode: '106104',
    },
    phone: '+234 1 700 5866',
    email: 'care@maisonluxe.ng',
    hours: 'Monday to Saturday, 10:00 to 19:00',
    openingHours: 'Mo-Sa 10:00-19:00',
    pickupNote: PICKUP_NOTE,
  },
  ZA: {
    market: 'ZA',
    location: {
      id: 'pickup-johannesburg',
      name: `${STORE_NAME} Rosebank`,
      country: 'south_africa',
      state: 'Gauteng',
      city: 'Johannesburg',
      address: '50 Bath Avenue, Rosebank',
      zipCode: '2196',
    },
    phone: '+27 11 880 5866',
    email: 'care@maisonluxe.co.za',
    hours: 'Monday to Saturday, 09:00 to 18:00; Sunday 10:00 to 15:00',
    openingHours: 'Mo-Sa 09:00-18:00, Su 10:00-15:00',
    pickupNote: PICKUP_NOTE,
  },
};

export const PICKUP_LOCATIONS: readonly AddressDto[] = Object.values(BOUTIQUES).map((b) => b.location);

/** The boutique whose pickup address this is (an order's pickup address), if any. */
export function boutiqueAt(address: Pick<AddressDto, 'id'>): Boutique | undefined {
  return Object.values(BOUTIQUES).find((b) => b.location.id === address.id);
}

/** schema.org Store for a boutique (the Contact page's structured data). */
export function boutiqueJsonLd(b: Boutique, site: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Store',
    name: b.location.name,
    url: new URL('/contact', site).toString(),
    telephone: b.phone.replace(/\s/g, ''),
    email: b.email,
    openingHours: b.openingHours,
    address: {
      '@type': 'PostalAddress',
      streetAddress: b.location.address,
      addressLocality: b.location.city,
      addressRegion: b.location.state,
      postalCode: b.location.zipCode,
      addressCountry: MARKETS[b.market].code,
    },
  };
}

/** The market's pickup store (Lagos in Nigeria, Johannesburg in South Africa). */
export function pickupLocationForMarket(code: MarketCode): AddressDto {
  return pickupLocationFor(MARKETS[code].country);
}

/** The pickup store in the shopper's country (Lagos when unknown). */
export function pickupLocationFor(country: Country | null | undefined): AddressDto {
  return PICKUP_LOCATIONS.find((l) => l.country === country) ?? PICKUP_LOCATIONS[0]!;
}

/**
 * Each market's order value (subtotal less discount, minor units) from which Express delivery at
 * home costs nothing; null: Express is always charged. The cart announces it and checkout charges
 * by it, both through `deliveryFeeMinor`.
 */
export const FREE_EXPRESS_FROM_MINOR: Record<MarketCode, number | null> = { NG: 250_000_000, ZA: 2_500_000 };

/** The free-express threshold of the market whose currency this is (null when it has none). */
export function freeExpressFromMinor(currency: CurrencyCode): number | null {
  const code = (Object.keys(MARKETS) as MarketCode[]).find((c) => MARKETS[c].currency === currency);
  return code ? FREE_EXPRESS_FROM_MINOR[code] : null;
}

/**
 * Delivery fee in minor units at a speed for an order of `orderMinor` (subtotal less discount);
 * null means delivery is impossible (no address). Pickup is free, and so is Express at home once
 * the order reaches the market's threshold.
 */
export function deliveryFeeMinor(option: DeliveryOption, currency: CurrencyCode, country: Country | null, speed: DeliverySpeedId = DEFAULT_DELIVERY_SPEED, orderMinor = 0): number | null {
  if (option === 'collect') return 0;
  if (!country) return null;
  const domestic = Object.values(MARKETS).some((m) => m.currency === currency && m.country === country);
  if (!domestic) return DELIVERY_SPEED_FEES[speed][currency] + CROSS_BORDER_SURCHARGE_MINOR[currency];
  const freeFrom = freeExpressFromMinor(currency);
  if (speed === 'express' && freeFrom !== null && orderMinor >= freeFrom) return 0;
  return DELIVERY_SPEED_FEES[speed][currency];
}

/** The least a delivery at home can cost in a currency (what the cart says before an address is known). */
export function lowestDeliveryFeeMinor(currency: CurrencyCode): number {
  return Math.min(...DELIVERY_SPEED_IDS.map((id) => DELIVERY_SPEED_FEES[id][currency]));
}

/** Delivery is the default when the shopper has a default address, else pickup. */
export function defaultDeliveryOption(hasDefaultAddress: boolean): DeliveryOption {
  return hasDefaultAddress ? 'delivery' : 'collect';
}

export const DELIVERY_SPEED_IDS = ['express', 'standard', 'economy'] as const;
export type DeliverySpeedId = (typeof DELIVERY_SPEED_IDS)[number];
/** A cart that never chose a speed is delivered at this one: tracked and signed for, at a middle price. */
export const DEFAULT_DELIVERY_SPEED: DeliverySpeedId = 'standard';

const DELIVERY_SPEED_FEES: Record<DeliverySpeedId, Record<CurrencyCode, number>> = {
  express: { NGN: 1_500_000, ZAR: 25_000 },
  standard: { NGN: 1_000_000, ZAR: 18_000 },
  economy: { NGN: 500_000, ZAR: 12_000 },
};

export interface DeliverySpeed {
  id: DeliverySpeedId;
  name: string;
  days: string;
  /** Working days (Monday to Friday) from the order to its delivery: earliest and latest. */
  workingDays: readonly [number, number];
  description: string;
  feeMinor: Record<CurrencyCode, number>;
}

export const DELIVERY_SPEEDS: readonly DeliverySpeed[] = [
  {
    id: 'express',
    name: 'Express',
    days: '1-2 business days',
    workingDays: [1, 2],
    description: 'Dispatched the same day when you order before 1 pm, delivered by our own couriers in Lagos, Abuja, Johannesburg and Cape Town.',
    feeMinor: DELIVERY_SPEED_FEES.express,
  },
  {
    id: 'standard',
    name: 'Standard',
    days: '3-5 days',
    workingDays: [3, 5],
    description: 'Tracked door-to-door delivery with signature on arrival, to every state in Nigeria and every province in South Africa.',
    feeMinor: DELIVERY_SPEED_FEES.standard,
  },
  {
    id: 'economy',
    name: 'Economy',
    days: '5-7 days',
    workingDays: [5, 7],
    description: 'Our most affordable option: tracked delivery by our partner network, ideal when you are not in a hurry.',
    feeMinor: DELIVERY_SPEED_FEES.economy,
  },
];

export function deliverySpeed(id: string): DeliverySpeed | undefined {
  return DELIVERY_SPEEDS.find((s) => s.id === id);
}

/** `from` plus `days` working days (Saturdays and Sundays skipped), in UTC. */
function addWorkingDays(from: Date, days: number): Date {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  return d;
}

const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** When an order placed at `from` arrives at a speed, as checkout shows it: "Thu 26 Nov – Fri 27 Nov". */
export function estimatedDelivery(speed: DeliverySpeedId, from: Date): string {
  const { workingDays } = deliverySpeed(speed)!;
  return `${DAY.format(addWorkingDays(from, workingDays[0]))} – ${DAY.format(addWorkingDays(from, workingDays[1]))}`;
}

/** What the courier needs beyond the address: "Landmark or directions: …. Phone for delivery: …", or null. */
export function deliveryDirections(a: Pick<AddressDto, 'landmark' | 'deliveryPhone'>): string | null {
  const parts = [a.landmark ? `Landmark or directions: ${a.landmark}` : null, a.deliveryPhone ? `Phone for delivery: ${a.deliveryPhone}` : null].filter(Boolean);
  return parts.length ? parts.join('. ') : null;
}

export function formatAddress(a: Pick<AddressDto, 'address' | 'city' | 'state' | 'zipCode' | 'country'>): string {
  return [a.address, a.city, a.state, a.zipCode, countryName(a.country)].filter(Boolean).join(', ');
}
