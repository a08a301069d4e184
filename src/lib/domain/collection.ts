/**
 * Staff settling a pay-on-delivery order at the door: "Delivered and paid" with how and
 * how much (major units, like the rest of the API), or "Refused at the door". Also the per-market
 * pay-on-delivery settings form.
 */
import { z } from 'zod';
import { cursorFields } from './paging';
import { parseMarket } from './markets';
import { message } from './messages';
import { COLLECTION_METHODS, COLLECTION_OUTCOMES, DEFAULT_MAX_OPEN_POD_ORDERS } from './payment-methods';

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

export const collectionSchema = z
  .object({
    outcome: z.enum(COLLECTION_OUTCOMES, { error: message('collection-outcome-required') }),
    method: z.preprocess(blank, z.enum(COLLECTION_METHODS, { error: message('collection-method-required') }).optional()),
    amount: z.preprocess(blank, z.coerce.number({ error: message('collection-amount-required') }).finite(message('collection-amount-required')).optional()),
  })
  .superRefine((v, ctx) => {
    if (v.outcome !== 'paid') return;
    if (v.method === undefined) ctx.addIssue({ code: 'custom', path: ['method'], message: message('collection-method-required') });
    else if (v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: message('collection-amount-required') });
  })
  .transform((v) =>
    v.outcome === 'paid' ? { outcome: 'paid' as const, method: v.method!, amount: v.amount! } : { outcome: 'refused' as const },
  );
export type CollectionInput = z.output<typeof collectionSchema>;

const money = (msg: string) =>
  z.coerce
    .number({ error: msg })
    .finite(msg)
    .min(0, msg)
    // A trillion (major units) is far above any basket and well inside the database's bigint.
    .max(1_000_000_000_000, msg)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, msg);

/** The "Pay on delivery" settings form of one market (amounts in major units; a ticked box is true). */
export const podRulesSchema = z
  .object({
    enabled: z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean()),
    cap: money(message('promo-amount-invalid')),
    ceiling: money(message('promo-amount-invalid')),
    depositPercent: z.coerce.number({ error: message('pod-deposit-range') }).int(message('pod-deposit-range')).min(1, message('pod-deposit-range')).max(100, message('pod-deposit-range')),
    maxOpenOrders: z.coerce
      .number({ error: message('pod-max-open-range') })
      .int(message('pod-max-open-range'))
      .min(1, message('pod-max-open-range'))
      .max(100, message('pod-max-open-range'))
      .default(DEFAULT_MAX_OPEN_POD_ORDERS),
  })
  .refine((v) => v.cap <= v.ceiling, { message: message('pod-rules-cap-above-ceiling') });

/** The "To collect" list's filters: a market (NG, ZA) and the page. */
export const toCollectQuerySchema = z.object({
  market: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .transform((v, ctx) => parseMarket(v) ?? (ctx.addIssue({ code: 'custom', message: message('market-invalid') }), z.NEVER))
      .optional(),
  ),
  page: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(100_000).optional()),
  ...cursorFields,
});

/** Lifting a shopper's block: the refusals the page showed, so a form sent twice (or after a new refusal) changes nothing unseen. */
/** Staff release a verified number from a customer's account: the number, in E.164. */
export const releasePhoneSchema = z.object({
  phone: z.string().trim().regex(/^\+\d{8,15}$/, message('phone-release-unknown')),
});

export const liftRefusalsSchema = z.object({
  refusedBefore: z.coerce.number({ error: message('refusals-before-required') }).int(message('refusals-before-required')).min(0, message('refusals-before-required')).max(1_000_000, message('refusals-before-required')),
});
