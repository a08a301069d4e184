/**
 * The store's shipping configuration, in one place: the delivery fee per destination
 * country, the pickup locations, and the delivery speeds shown on /delivery-options.
 * Fees are integer minor units of the store currency.
 */
import { STORE_NAME } from './brand';
import { countryName, type Country } from './geo';
import { MARKETS, type MarketCode } from './markets';
import type { CurrencyCode } from './money';

export type { Country } from './geo';
export const DELIVERY_OPTIONS = ['delivery', 'pickup'] as const;
export type DeliveryOption = (typeof DELIVERY_OPTIONS)[number];

/** Fee for home delivery to a country, by store currency. Pickup is always free. */
export const DELIVERY_FEE_MINOR: Record<CurrencyCode, Record<Country, number>> = {
  NGN: { nigeria: 500_000, south_africa: 3_500_000 },
  ZAR: { nigeria: 45_000, south_africa: 12_000 },
};

/** An address as the cart, checkout and orders show it (also used for pickup stores). */
export interface AddressDto {
  id: string;
  /** Full name of the recipient, or the store's name for pickup. */
  name: string;
  country: Country;
  state: string;
  city: string;
  address: string;
  zipCode: string;
}

export const PICKUP_LOCATIONS: readonly AddressDto[] = [
  {
    id: 'pickup-lagos',
    name: `${STORE_NAME} Ikoyi`,
    country: 'nigeria',
    state: 'Lagos',
    city: 'Ikoyi',
    address: '22 Awolowo Road',
    zipCode: '106104',
  },
  {
    id: 'pickup-johannesburg',
    name: `${STORE_NAME} Rosebank`,
    country: 'south_africa',
    state: 'Gauteng',
    city: 'Johannesburg',
    address: '50 Bath Avenue, Rosebank',
    zipCode: '2196',
  },
];

/** The market's pickup store (Lagos in Nigeria, Johannesburg in South Africa). */
export function pickupLocationForMarket(code: MarketCode): AddressDto {
  return pickupLocationFor(MARKETS[code].country);
}

/** The pickup store in the shopper's country (Lagos when unknown). */
export function pickupLocationFor(country: Country | null | undefined): AddressDto {
  return PICKUP_LOCATIONS.find((l) => l.country === country) ?? PICKUP_LOCATIONS[0]!;
}

/** Delivery fee in minor units; null means delivery is impossible (no address). */
export function deliveryFeeMinor(option: DeliveryOption, currency: CurrencyCode, country: Country | null): number | null {
  if (option === 'pickup') return 0;
  if (!country) return null;
  return DELIVERY_FEE_MINOR[currency][country];
}

/** Delivery is the default when the shopper has a default address, else pickup. */
export function defaultDeliveryOption(hasDefaultAddress: boolean): DeliveryOption {
  return hasDefaultAddress ? 'delivery' : 'pickup';
}

export interface DeliverySpeed {
  id: 'express' | 'standard' | 'economy';
  name: string;
  days: string;
  description: string;
  feeMinor: Record<CurrencyCode, number>;
}

export const DELIVERY_SPEEDS: readonly DeliverySpeed[] = [
  {
    id: 'express',
    name: 'Express',
    days: '1-2 business days',
    description: 'Dispatched the same day when you order before 1 pm, delivered by our own couriers in Lagos, Abuja, Johannesburg and Cape Town.',
    feeMinor: { NGN: 1_500_000, ZAR: 25_000 },
  },
  {
    id: 'standard',
    name: 'Standard',
    days: '3-5 days',
    description: 'Tracked door-to-door delivery with signature on arrival, to every state in Nigeria and every province in South Africa.',
    feeMinor: { NGN: 1_000_000, ZAR: 15_000 },
  },
  {
    id: 'economy',
    name: 'Economy',
    days: '5-7 days',
    description: 'Our most affordable option: tracked delivery by our partner network, ideal when you are not in a hurry.',
    feeMinor: { NGN: 500_000, ZAR: 8_000 },
  },
];

export function deliverySpeed(id: string): DeliverySpeed | undefined {
  return DELIVERY_SPEEDS.find((s) => s.id === id);
}

export function formatAddress(a: Pick<AddressDto, 'address' | 'city' | 'state' | 'zipCode' | 'country'>): string {
  return [a.address, a.city, a.state, a.zipCode, countryName(a.country)].filter(Boolean).join(', ');
}
