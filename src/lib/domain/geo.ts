/** Countries the store ships to, and their first-level divisions (for address forms and checks). */
export const COUNTRIES = ['nigeria', 'south_africa'] as const;
export type Country = (typeof COUNTRIES)[number];
/** Where a shopper lives when they have not said (the default market's country). */
export const DEFAULT_COUNTRY: Country = 'nigeria';

/** Whether an address there needs a postcode: South Africa's are in everyday use, Nigeria's are not. */
export const ZIP_REQUIRED: Record<Country, boolean> = { nigeria: false, south_africa: true };

export const COUNTRY_NAMES: Record<Country, string> = {
  nigeria: 'Nigeria',
  south_africa: 'South Africa',
};

/** Nigeria: the 36 states plus the Federal Capital Territory. */
const NIGERIA_STATES = [
  'Abia', 'Adamawa', 'Akwa Ibom', 'Anambra', 'Bauchi', 'Bayelsa', 'Benue', 'Borno', 'Cross River',
  'Delta', 'Ebonyi', 'Edo', 'Ekiti', 'Enugu', 'Federal Capital Territory', 'Gombe', 'Imo', 'Jigawa',
  'Kaduna', 'Kano', 'Katsina', 'Kebbi', 'Kogi', 'Kwara', 'Lagos', 'Nasarawa', 'Niger', 'Ogun',
  'Ondo', 'Osun', 'Oyo', 'Plateau', 'Rivers', 'Sokoto', 'Taraba', 'Yobe', 'Zamfara',
] as const;

/** South Africa: the 9 provinces. */
const SOUTH_AFRICA_PROVINCES = [
  'Eastern Cape', 'Free State', 'Gauteng', 'KwaZulu-Natal', 'Limpopo', 'Mpumalanga',
  'North West', 'Northern Cape', 'Western Cape',
] as const;

export const STATES: Record<Country, readonly string[]> = {
  nigeria: NIGERIA_STATES,
  south_africa: SOUTH_AFRICA_PROVINCES,
};

export function isCountry(value: unknown): value is Country {
  return typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
}

export function isStateOf(country: Country, state: string): boolean {
  return STATES[country].includes(state);
}

export function countryName(country: string): string {
  return isCountry(country) ? COUNTRY_NAMES[country] : country;
}
