/** Money is integer minor units (kobo, cents) everywhere except the JSON the screens read. */
import { marketOfCurrency, type CurrencyCode } from './markets';

export type { CurrencyCode } from './markets';

export const MINOR_PER_MAJOR = 100;

export function toMajor(minor: number): number {
  return minor / MINOR_PER_MAJOR;
}

export function toMinor(major: number): number {
  return Math.round(major * MINOR_PER_MAJOR);
}

/** An amount and its currency. Arithmetic goes through the functions below, which refuse to mix currencies. */
export interface Money {
  readonly minor: number;
  readonly currency: CurrencyCode;
}

export class CurrencyMismatch extends Error {
  constructor(a: string, b: string) {
    super(`Cannot combine ${a} with ${b}`);
    this.name = 'CurrencyMismatch';
  }
}

export function money(minor: number, currency: CurrencyCode): Money {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Money must be a whole number of minor units, got ${minor}`);
  return { minor, currency };
}

export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new CurrencyMismatch(a.currency, b.currency);
  return money(a.minor + b.minor, a.currency);
}

export function timesMoney(a: Money, quantity: number): Money {
  if (!Number.isInteger(quantity)) throw new RangeError(`Quantity must be whole, got ${quantity}`);
  return money(a.minor * quantity, a.currency);
}

/** The sum of amounts in `currency` (zero for none); one amount in another currency throws. */
export function sumMoney(currency: CurrencyCode, amounts: Iterable<Money>): Money {
  let total = money(0, currency);
  for (const a of amounts) total = addMoney(total, a);
  return total;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Formats major units in a currency with its market's locale grouping, e.g. ₦250,000 or R 12 500. Cents only when present. */
export function formatMoney(major: number, currency: CurrencyCode): string {
  const whole = Number.isInteger(major);
  const key = `${currency}:${whole}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(marketOfCurrency(currency)?.locale ?? 'en', {
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

export function formatMinor(amount: Money): string {
  return formatMoney(toMajor(amount.minor), amount.currency);
}

export function currencySymbol(currency: CurrencyCode): string {
  return marketOfCurrency(currency)?.symbol ?? currency;
}
