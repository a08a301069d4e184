import { z } from 'zod';
import type { MarketCode } from './markets';
import { message } from './messages';
import { MAX_RATE_BASIS_POINTS, rateOn, type DatedRate } from './vat';

/**
 * A market's tax settings, as the owner sets them and the books read them, and the shapes of the
 * tax numbers: a South African VAT number is 10 digits starting with 4; a Nigerian TIN is FIRS's
 * 8 digits, a hyphen and 4 (12345678-0001), or the 10 digits of the joint tax board's TIN.
 */

export interface TaxSettings {
  market: MarketCode;
  registered: boolean;
  legalName: string;
  address: string;
  taxNumber: string;
  rates: DatedRate[];
  deliveryTaxed: boolean;
  giftWrapTaxed: boolean;
  lockerFeeTaxed: boolean;
  periodMonths: 1 | 2;
  periodStartsOdd: boolean;
  notice: string | null;
}

/** Beside a total where the market is registered: prices include VAT and say so (VAT Act s.65). */
export const VAT_INCLUDED = 'incl. VAT';

export const ZA_VAT_NUMBER = /^4\d{9}$/;
export const NG_TIN = /^(?:\d{8}-\d{4}|\d{10})$/;

/** What the tax number is called in a market: a VAT number in South Africa, a TIN in Nigeria. */
export function taxNumberLabel(market: MarketCode): 'VAT number' | 'TIN' {
  return market === 'ZA' ? 'VAT number' : 'TIN';
}

/** Whether `value` has the shape of the market's tax number (spaces ignored). */
export function taxNumberValid(market: MarketCode, value: string): boolean {
  return (market === 'ZA' ? ZA_VAT_NUMBER : NG_TIN).test(value.replace(/\s+/g, ''));
}

/** The shape of a market's tax number, as a field's hint says it. */
export function taxNumberHint(market: MarketCode): string {
  return market === 'ZA' ? '10 digits, starting with 4' : '8 digits, a hyphen and 4 (12345678-0001), or 10 digits';
}

export function taxNumberError(market: MarketCode): string {
  return message(market === 'ZA' ? 'tax-vat-number-shape' : 'tax-tin-shape');
}

/** A company's name on a tax invoice: at most this many characters. */
export const BUYER_COMPANY_MAX = 120;

/** A company a shopper buys for, printed on the order's tax invoice with its VAT number or TIN. */
export interface BuyerBusiness {
  company: string;
  taxNumber: string | null;
}

/** What checkout's "Buying for a company?" asks in `market`: the number's name and shape, the name's limit. */
export function companyOffer(market: MarketCode): { taxNumberLabel: string; taxNumberHint: string; companyMax: number } {
  return { taxNumberLabel: taxNumberLabel(market), taxNumberHint: taxNumberHint(market), companyMax: BUYER_COMPANY_MAX };
}

const blankAsNone = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/**
 * Checkout's "Company name" and VAT number (ZA) or TIN (NG), both optional: the number in the
 * market's shape, and only with the company it belongs to. Nothing given: null.
 */
export function buyerBusinessInput(market: MarketCode) {
  return z
    .object({
      company: z.preprocess(blankAsNone, z.string().trim().max(BUYER_COMPANY_MAX, message('buyer-company-too-long', String(BUYER_COMPANY_MAX))).optional()),
      taxNumber: z.preprocess(
        blankAsNone,
        z
          .string({ error: taxNumberError(market) })
          .transform((v) => v.replace(/\s+/g, ''))
          .refine((v) => taxNumberValid(market, v), taxNumberError(market))
          .optional(),
      ),
    })
    .superRefine((v, ctx) => {
      if (v.taxNumber && !v.company) ctx.addIssue({ code: 'custom', path: ['company'], message: message('buyer-company-required') });
    })
    .transform((v): BuyerBusiness | null => (v.company ? { company: v.company, taxNumber: v.taxNumber ?? null } : null));
}

const flag = z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean());
const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isDay = (v: string) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

const rateSchema = z.object({
  percent: z.coerce.number({ error: message('tax-rate-range') }).min(0, message('tax-rate-range')).max(100, message('tax-rate-range')),
  from: z.string({ error: message('tax-rate-date') }).trim().refine(isDay, message('tax-rate-date')),
});

/** The settings as a form or the API sends them: rates in percent (15, 7.5), with their dates. */
export function taxSettingsInput(market: MarketCode) {
  return z.object({
    registered: flag,
    legalName: z.string({ error: message('tax-legal-name-required') }).trim().min(1, message('tax-legal-name-required')).max(200),
    address: z.string({ error: message('tax-address-required') }).trim().min(1, message('tax-address-required')).max(500),
    taxNumber: z
      .string({ error: taxNumberError(market) })
      .transform((v) => v.replace(/\s+/g, ''))
      .refine((v) => taxNumberValid(market, v), taxNumberError(market)),
    rates: z.array(rateSchema).min(1, message('tax-rate-range')).max(20),
    deliveryTaxed: flag.default(true),
    giftWrapTaxed: flag.default(true),
    lockerFeeTaxed: flag.default(true),
    periodMonths: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: message('tax-period-months') })).default(1),
    periodStartsOdd: flag.default(true),
  });
}
export type TaxSettingsInput = z.infer<ReturnType<typeof taxSettingsInput>>;

/** Percent (7.5) to basis points (750), exact to the basis point. */
export function percentToBasisPoints(percent: number): number {
  return Math.min(MAX_RATE_BASIS_POINTS, Math.max(0, Math.round(percent * 100)));
}

/** The rate an order placed on `day` pays in a market under `settings` (0 where the market is not registered). */
export function rateForDay(settings: TaxSettings | null, day: string): number {
  if (!settings?.registered) return 0;
  return rateOn(settings.rates, day) ?? 0;
}

/** The period (first and last day, YYYY-MM-DD) a day falls in, by the market's period length and alignment. */
export function periodOf(settings: Pick<TaxSettings, 'periodMonths' | 'periodStartsOdd'>, day: string): { from: string; to: string } {
  const [y, m] = day.split('-').map(Number) as [number, number];
  let startMonth = m;
  if (settings.periodMonths === 2) {
    const odd = m % 2 === 1;
    if (odd !== settings.periodStartsOdd) startMonth = m - 1;
  }
  const start = new Date(Date.UTC(y, startMonth - 1, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + settings.periodMonths, 0));
  return { from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) };
}
