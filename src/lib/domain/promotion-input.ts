/**
 * The back office's promotion input, pure: the JSON of /api/v1/admin/promotions and the
 * form of /admin/promotions read into one shape. Amounts are typed in major units (₦ 5000, R 100)
 * and kept in minor units; dates are ISO (a form's datetime-local without a zone is read as UTC).
 */
import { z } from 'zod';
import { Invalid } from './errors';
import { MARKET_CODES, MARKETS, type MarketCode } from './markets';
import { toMinor } from './money';
import { fill, message } from './messages';
import { normaliseCode } from './promotions';
import { id, MAX_ID, text } from './validation';

export const PROMOTION_STATUSES = ['active', 'paused'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

/** Codes: letters, digits, '-' and '_', 3 to 40 characters (stored upper-case). */
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,39}$/;

export interface PromotionInput {
  code?: string | undefined;
  description?: string | undefined;
  kind?: 'percent' | 'fixed' | undefined;
  percentOff?: number | null | undefined;
  /** Minor units per market. */
  amountOff?: Partial<Record<MarketCode, number>> | undefined;
  minSubtotal?: Partial<Record<MarketCode, number>> | undefined;
  startsAt?: Date | null | undefined;
  endsAt?: Date | null | undefined;
  usageLimit?: number | null | undefined;
  oncePerCustomer?: boolean | undefined;
  firstOrderOnly?: boolean | undefined;
  /** null: every category. */
  categoryIds?: number[] | null | undefined;
  status?: PromotionStatus | undefined;
  /** The welcome promotion's codes: valid this many days. */
  codeValidDays?: number | undefined;
}

const blank = (v: unknown) => v === '' || v === null;

const checkbox = z
  .union([z.boolean(), z.enum(['on', 'true', '1', 'false', '0', ''])])
  .transform((v) => v === true || v === 'on' || v === 'true' || v === '1');

const majorAmount = () =>
  z.union([z.number(), z.string().max(20)]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : Number(v.replace(/[,\s]/g, ''));
    if (!Number.isFinite(n) || n < 0 || n > 1e11 || Math.abs(n * 100 - Math.round(n * 100)) > 1e-6) {
      ctx.addIssue({ code: 'custom', message: message('promo-amount-invalid') });
      return z.NEVER;
    }
    return toMinor(n);
  });

const perMarket = () =>
  z
    .record(z.string().max(10), z.union([z.literal(''), z.null(), majorAmount()]), { error: message('promo-amount-invalid') })
    .superRefine((rec, ctx) => {
      for (const key of Object.keys(rec)) if (!(MARKET_CODES as readonly string[]).includes(key)) ctx.addIssue({ code: 'custom', message: message('promo-markets') });
    })
    .transform((rec) => {
      const out: Partial<Record<MarketCode, number>> = {};
      for (const m of MARKET_CODES) {
        const v = rec[m];
        if (typeof v === 'number' && v > 0) out[m] = v;
      }
      return out;
    });

const when = () =>
  z.union([z.string().max(40), z.null()], { error: message('promo-date-invalid') }).transform((v, ctx) => {
    if (v === null || v.trim() === '') return null;
    // datetime-local (no zone) is UTC; a bare day is its midnight UTC.
    const s = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?$/.test(v.trim()) ? `${v.trim().length === 10 ? `${v.trim()}T00:00` : v.trim()}Z` : v.trim();
    const d = new Date(s);
    if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 2000 || d.getUTCFullYear() > 2999) {
      ctx.addIssue({ code: 'custom', message: message('promo-date-invalid') });
      return z.NEVER;
    }
    return d;
  });

const wholeOrNull = (text: string, min: number, max: number) =>
  z.union([z.number(), z.string().max(20), z.null()], { error: text }).transform((v, ctx) => {
    if (blank(v)) return null;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: text });
      return z.NEVER;
    }
    return n;
  });

/** The JSON fields (all optional: an update changes what it names). */
export const promotionJsonSchema = z
  .object({
    code: text('code', 40).optional(),
    description: text('description', 300).optional(),
    kind: z.enum(['percent', 'fixed']).optional(),
    percentOff: wholeOrNull(message('promo-percent-range'), 1, 100).optional(),
    amountOff: perMarket().optional(),
    minSubtotal: perMarket().optional(),
    startsAt: when().optional(),
    endsAt: when().optional(),
    usageLimit: wholeOrNull(message('promo-limit-range'), 1, 1_000_000_000).optional(),
    oncePerCustomer: checkbox.optional(),
    firstOrderOnly: checkbox.optional(),
    categoryIds: z.union([z.array(id).max(200), z.null()]).optional(),
    status: z.enum(PROMOTION_STATUSES).optional(),
    codeValidDays: wholeOrNull(message('promo-days-range'), 1, 365).optional(),
  })
  .strict();

/** Reads JSON or a form (flat fields: `amountOff.NG`, `category.12`, unticked boxes absent) into a PromotionInput. */
export function parsePromotionInput(raw: unknown, opts: { form?: boolean } = {}): PromotionInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Invalid(message('form-unreadable'));
  let input = { ...(raw as Record<string, unknown>) };
  delete input.id;
  if (opts.form) input = fromForm(input);
  const parsed = promotionJsonSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    if (issue?.code === 'unrecognized_keys') throw new Invalid(message('promo-unknown-field'));
    // Our own texts name the field already; zod's generic ones get the field's name.
    const text = issue?.message ?? message('request-invalid');
    const named = issue?.code === 'custom' || /^(The |Enter |Amounts |Days |A code|code |description )/.test(text);
    throw new Invalid(named ? text : fill('field-invalid', field, text));
  }
  const v = parsed.data;
  const out: PromotionInput = { ...v, percentOff: v.percentOff, usageLimit: v.usageLimit, codeValidDays: v.codeValidDays ?? undefined };
  if (v.code !== undefined) {
    const code = normaliseCode(v.code);
    if (!CODE_PATTERN.test(code)) throw new Invalid(message('promo-code-format'));
    out.code = code;
  }
  if (v.categoryIds) out.categoryIds = v.categoryIds.length ? [...new Set(v.categoryIds)] : null;
  // The kind follows from what is given when not named.
  if (!out.kind) {
    if (out.percentOff !== undefined && out.percentOff !== null) out.kind = 'percent';
    else if (out.amountOff && Object.keys(out.amountOff).length) out.kind = 'fixed';
  }
  if (out.startsAt && out.endsAt && out.endsAt.getTime() <= out.startsAt.getTime()) throw new Invalid(message('promo-end-after-start'));
  return out;
}

function fromForm(form: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const amountOff: Record<string, unknown> = {};
  const minSubtotal: Record<string, unknown> = {};
  const categoryIds: unknown[] = [];
  for (const [key, value] of Object.entries(form)) {
    let m: RegExpExecArray | null;
    if ((m = /^amountOff\.(\w+)$/.exec(key))) amountOff[m[1]!] = value;
    else if ((m = /^minSubtotal\.(\w+)$/.exec(key))) minSubtotal[m[1]!] = value;
    else if ((m = /^category\.(\d{1,10})$/.exec(key))) {
      if (value === true && Number(m[1]) <= MAX_ID) categoryIds.push(Number(m[1]));
    } else if (key !== 'form') out[key] = value;
  }
  // A form sends every field: an unticked box is false, no ticked category is every category.
  out.oncePerCustomer = out.oncePerCustomer ?? false;
  out.firstOrderOnly = out.firstOrderOnly ?? false;
  out.categoryIds = categoryIds.map(Number);
  if (Object.keys(amountOff).length) out.amountOff = amountOff;
  if (Object.keys(minSubtotal).length) out.minSubtotal = minSubtotal;
  // The kind's other field is ignored (a percentage form keeps its empty amount boxes).
  if (out.kind === 'percent') delete out.amountOff;
  if (out.kind === 'fixed') delete out.percentOff;
  return out;
}

/** A fixed promotion's missing markets (where its code is not valid), for the back office's hint. */
export function marketsWithout(amountOff: Partial<Record<MarketCode, number>>): string[] {
  return MARKET_CODES.filter((m) => !amountOff[m]).map((m) => MARKETS[m].countryName);
}
