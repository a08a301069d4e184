/** Money is integer minor units (kobo, cents) everywhere except the JSON the screens read. */
export type CurrencyCode = 'NGN' | 'ZAR';

export const MINOR_PER_MAJOR = 100;

export function toMajor(minor: number): number {
  return minor / MINOR_PER_MAJOR;
}

export function toMinor(major: number): number {
  return Math.round(major * MINOR_PER_MAJOR);
}

const locales: Record<CurrencyCode, string> = { NGN: 'en-NG', ZAR: 'en-ZA' };
const formatters = new Map<string, Intl.NumberFormat>();

/** Formats major units in the store currency, e.g. ₦250,000. Kobo are shown only when present. */
export function formatMoney(major: number, currency: CurrencyCode): string {
  const whole = Number.isInteger(major);
  const key = `${currency}:${whole}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locales[currency], {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, f);
  }
  return f.format(major);
}

export function currencySymbol(currency: CurrencyCode): string {
  return currency === 'NGN' ? '₦' : 'R';
}
