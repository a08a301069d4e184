/** Back office input schemas (pure; shared by pages and endpoints). */
import { parseDimensions } from './catalogue';
import { z } from 'zod';
import { ROLES } from './account-rules';
import { toMinor } from './money';
import { Invalid } from './errors';
import { fill, message } from './messages';
import { DEFAULT_MARKET, MARKET_CODES, MARKETS, type MarketCode } from './markets';
import { ORDER_STATUSES, STAFF_SETTABLE_STATUSES } from './orders';
import { cursorFields } from './paging';
import { day as calendarDay, fieldMessage, id, MAX_ID, optionalId, requiredId, text } from './validation';

const optionalText = text('q', 200)
  .optional()
  .transform((v) => (v ? v : undefined));
const page = z.coerce.number().int().min(1).max(100_000).catch(1).default(1);
const day = (label: string) =>
  z
    .union([z.literal(''), calendarDay(label)])
    .optional()
    .transform((v) => (v ? v : undefined));

export const productFilterSchema = z.object({
  q: optionalText,
  categoryId: optionalId,
  status: z
    .enum(['active', 'draft', ''])
    .optional()
    .transform((v) => (v ? v : undefined)),
  lowStock: z
    .enum(['1', 'on', 'true', ''])
    .optional()
    .transform((v) => Boolean(v)),
  page,
  ...cursorFields,
});

export const orderFilterSchema = z.object({
  status: z
    .enum([...ORDER_STATUSES, ''])
    .optional()
    .transform((v) => (v ? v : undefined)),
  from: day('from'),
  to: day('to'),
  q: optionalText,
  page,
  ...cursorFields,
});

export const pageQuerySchema = z.object({ q: optionalText, page, ...cursorFields });

/** A price typed in major units ("250000" or "2,500.50") becomes minor units. */
const priceSchema = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : Number(v.replace(/[,\s]/g, ''));
    if (!Number.isFinite(n) || n < 0 || n > 1e11) {
      ctx.addIssue({ code: 'custom', message: message('price-required') });
      return z.NEVER;
    }
    return toMinor(n);
  });

const checkbox = z
  .union([z.boolean(), z.enum(['on', 'true', '1', 'false', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'on' || v === 'true' || v === '1');

export const productSchema = z.object({
  name: text('name', 160).min(2, message('product-name-required')),
  description: text('description', 5000, { multiline: true }).min(1, message('product-description-required')),
  price: priceSchema,
  categoryId: requiredId(message('category-required')),
  active: checkbox,
  /** A bag's "Size & fit" (cm, width × height × depth): empty states none; absent leaves it as it is. */
  dimensionsCm: z
    .string()
    .max(40, message('product-dimensions-invalid'))
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const parsed = parseDimensions(v);
      if (parsed === undefined) ctx.addIssue({ code: 'custom', message: message('product-dimensions-invalid') });
      return parsed ?? null;
    }),
  /** The designer: empty names none; absent leaves it as it is. */
  designerId: z.preprocess((v) => (v === '' || v === 'none' ? null : v), id.nullable().optional()),
});

/** The form field of a market's price: `price` for Nigeria (as before markets), `price.ZA` for the others. */
export function priceField(market: MarketCode): string {
  return market === DEFAULT_MARKET ? 'price' : `price.${market}`;
}

/**
 * Prices per market from form fields named by `field`: an empty field takes the price off sale
 * in that market (null), a missing one leaves it as it is (undefined).
 */
export function pricesFromForm(input: Record<string, unknown>, field: (market: MarketCode) => string, markets: readonly MarketCode[] = MARKET_CODES): Partial<Record<MarketCode, number | null>> {
  const prices: Partial<Record<MarketCode, number | null>> = {};
  for (const code of markets) {
    const raw = input[field(code)];
    if (raw === undefined) continue;
    if (raw === null || (typeof raw === 'string' && raw.trim() === '')) prices[code] = null;
    else {
      const parsed = priceSchema.safeParse(raw);
      if (!parsed.success) throw new Invalid(fill('market-price-invalid', MARKETS[code].countryName, parsed.error.issues[0]?.message ?? message('price-required')));
      prices[code] = parsed.data;
    }
  }
  return prices;
}

/** The other markets' prices of a product form (the default market's is its required `price`). */
export function otherMarketPrices(input: Record<string, unknown>): Partial<Record<MarketCode, number | null>> {
  return pricesFromForm(
    input,
    priceField,
    MARKET_CODES.filter((m) => m !== DEFAULT_MARKET),
  );
}

/** The editor grid's price field of one variant in one market. */
export function variantPriceField(market: MarketCode, variantId: number): string {
  return `price.${market}.${variantId}`;
}

/** A colour or size of a variant: none ('' or 'none') is null. */
const nullableId = z
  .preprocess((v) => (v === 'none' ? undefined : v), optionalId)
  .transform((v) => v ?? null);
const stock = z.coerce.number({ message: message('stock-not-whole') }).int(message('stock-not-whole')).min(0, message('stock-negative')).max(1_000_000);
const sku = text('sku', 64)
  .optional()
  .transform((v) => (v ? v : null));

export const variantSchema = z.object({ colorId: nullableId, sizeId: nullableId, stock, sku });

/**
 * The product editor's form: the product's fields (a `price` there sets every variant's price) and
 * the grid cells `stock.{variantId}`, `sku.{variantId}` and `price.{market}.{variantId}`.
 */
export function parseProductForm(input: Record<string, unknown>) {
  const product = productSchema.extend({ price: priceSchema.optional() }).parse(input, { error: fieldMessage });
  const grid: { variantId: number; stock: number; sku: string | null; prices: Partial<Record<MarketCode, number | null>> }[] = [];
  for (const [key, value] of Object.entries(input)) {
    const m = /^stock\.(\d+)$/.exec(key);
    if (!m) continue;
    const variantId = id.safeParse(m[1]).data;
    if (variantId === undefined) throw new Invalid(fill('variant-id-invalid', key, MAX_ID));
    grid.push({ variantId, stock: stock.parse(value), sku: sku.parse(input[`sku.${variantId}`]), prices: pricesFromForm(input, (market) => variantPriceField(market, variantId)) });
  }
  return { product, grid };
}

export const stockAdjustSchema = z.object({
  variantId: id,
  delta: z.coerce.number({ message: message('stock-change-required') }).int(message('stock-change-not-whole')).refine((n) => n !== 0 && Math.abs(n) <= 100_000, message('stock-change-nonzero')),
  reason: text('reason', 300).min(2, message('stock-reason-required')),
});

export const categorySchema = z.object({
  name: text('name', 80).min(2, message('category-name-required')),
  description: text('description', 2000, { multiline: true })
    .optional()
    .transform((v) => (v ? v : null)),
  position: z.coerce.number().int().min(0).max(10_000).default(0),
  parentId: nullableId,
});

export const imageEditSchema = z.object({
  op: z.enum(['alt', 'colour', 'up', 'down', 'delete']),
  alt: text('alt', 300).optional(),
  /** op colour: the colour the image shows (a colour id), or '' / null for every colour. */
  colorId: z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().positive().nullable()).optional(),
});

export const statusChangeSchema = z.object({
  status: z.enum(STAFF_SETTABLE_STATUSES),
  /** Marking delivered: the day it was delivered, when earlier than today (YYYY-MM-DD); the return window runs from it. */
  deliveredOn: z.preprocess((v) => (v === '' || v === null ? undefined : v), calendarDay('deliveredOn').optional()),
  /** Cancelling a paid order: its online money back to the payment (the default) or as store credit. */
  refundTo: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(['payment', 'store_credit'], { error: message('refund-to-required') }).optional()),
});

const LINE_REQUIRED = 'Choose a line of the order';
const QUANTITY_REQUIRED = 'Enter how many to refund';

/** A staff refund: empty for all that is left, an amount in major units (₦ 12500.50), or units of a line. */
export const refundSchema = z.object({
  amount: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number({ error: message('refund-amount-required') }).positive(message('refund-amount-positive')).optional(),
  ),
  /** Minor units already refunded when the form was shown: a form sent twice refunds once. */
  refundedBefore: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().min(0).optional()),
  /**
   * A line refund instead of an amount: the line (its position in the order, from 1) and how many
   * of its units; the amount is what was paid for them (its discount share taken off).
   */
  line: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number({ error: LINE_REQUIRED }).int(LINE_REQUIRED).min(1, LINE_REQUIRED).optional()),
  quantity: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number({ error: QUANTITY_REQUIRED }).int(QUANTITY_REQUIRED).min(1, QUANTITY_REQUIRED).optional()),
});

export const staffChangeSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email(message('staff-email-required'))),
  role: z.enum(ROLES),
});

/** The back office's refunds list: a status filter (owed, paid, failed, stuck), or every refund. */
export const refundsQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['owed', 'paid', 'failed', 'stuck'], { error: message('owed-refund-status-invalid') }).optional()),
});
