/**
 * The store's markets, in one place (docs/decisions/0004). A market is a country the store sells
 * in, with its own currency, locale, prices, delivery fee, pickup store and Paystack account.
 * Adding a market means adding an entry here (and its prices and a PAYSTACK_SECRET_KEY_<CODE>),
 * not code: everything else reads this table.
 */
import { COUNTRY_NAMES, type Country } from './geo';

export type { Country } from './geo';

export const MARKETS = {
  NG: {
    code: 'NG',
    currency: 'NGN',
    symbol: '₦',
    locale: 'en-NG',
    /** The value of addresses.country / users.country for this market's country. */
    country: 'nigeria',
    countryName: COUNTRY_NAMES.nigeria,
    pickupCity: 'Lagos',
    /** The market's calendar: what "today" and a delivery day mean for its orders. */
    timeZone: 'Africa/Lagos',
  },
  ZA: {
    code: 'ZA',
    currency: 'ZAR',
    symbol: 'R',
    locale: 'en-ZA',
    country: 'south_africa',
    countryName: COUNTRY_NAMES.south_africa,
    pickupCity: 'Johannesburg',
    timeZone: 'Africa/Johannesburg',
  },
} as const satisfies Record<string, Record<string, string> & { country: Country }>;

export type MarketCode = keyof typeof MARKETS;
export type Market = (typeof MARKETS)[MarketCode];
export type CurrencyCode = Market['currency'];

/** Nigeria: where a shopper is when nothing else says otherwise. */
export const DEFAULT_MARKET: MarketCode = 'NG';
export const MARKET_CODES = Object.keys(MARKETS) as [MarketCode, ...MarketCode[]];
export const ALL_MARKETS: readonly Market[] = Object.values(MARKETS);
/** The markets' currencies (NGN, ZAR). */
export const CURRENCY_CODES = ALL_MARKETS.map((m) => m.currency) as [CurrencyCode, ...CurrencyCode[]];
/** The cookie that keeps a shopper's explicit choice. */
export const MARKET_COOKIE = 'ml_market';

export function isMarketCode(value: unknown): value is MarketCode {
  return typeof value === 'string' && Object.hasOwn(MARKETS, value);
}

/** `NG`, `za`, ` ZA ` -> the market code, or null. */
export function parseMarket(value: string | null | undefined): MarketCode | null {
  const v = value?.trim().toUpperCase();
  return isMarketCode(v) ? v : null;
}

export function market(code: MarketCode): Market {
  return MARKETS[code];
}

/** "Nigeria (₦ NGN)": the option the "Shop in" control shows. */
export function marketLabel(code: MarketCode): string {
  const m = MARKETS[code];
  return `${m.countryName} (${m.symbol} ${m.currency})`;
}

export function marketOfCurrency(currency: string): Market | undefined {
  return ALL_MARKETS.find((m) => m.currency === currency);
}

/** The time zone of the market whose currency an order is in (Nigeria's when none matches). */
export function timeZoneOfCurrency(currency: string): string {
  return (marketOfCurrency(currency) ?? MARKETS[DEFAULT_MARKET]).timeZone;
}

export function marketOfCountry(country: string | null | undefined): MarketCode | null {
  return ALL_MARKETS.find((m) => m.country === country)?.code ?? null;
}

/**
 * The market a request is in: an explicit `?market=` first (a crawlable URL), then the shopper's
 * choice kept in the cookie, then the signed-in shopper's country, then Nigeria.
 */
export function resolveMarket(input: { query?: string | null; cookie?: string | null; country?: string | null }): MarketCode {
  return parseMarket(input.query) ?? parseMarket(input.cookie) ?? marketOfCountry(input.country) ?? DEFAULT_MARKET;
}
