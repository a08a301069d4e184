/**
 * Request shapes of returns (zod), apart from the rules in after-sales.ts. A return request comes as
 * JSON (`items: [{ orderItemId, quantity, exchangeVariantId? }]`) or as the plain form's fields
 * (`quantity-<orderItemId>`, `exchange-<orderItemId>`); staff actions as `{ action, ... }` or the back
 * office's forms (`received-<returnItemId>`, `damaged-<returnItemId>`).
 */
import { z } from 'zod';
import { cursorFields } from './paging';
import { CASH_REFUND_METHODS, HELP_MESSAGE_MAX, HELP_STATUSES, HELP_TOPICS, RETURN_ACTIONS, RETURN_METHODS, RETURN_REASONS, RETURN_RESOLUTIONS, RETURN_STATUSES } from './after-sales';
import { message } from './messages';
import { CURRENCY_CODES } from './markets';
import { toMinor } from './money';
import { text } from './validation';

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const whole = (msg: string) => z.coerce.number({ error: msg }).int(msg).min(0, msg).max(10_000, msg);

/** The plain form's `<prefix>-<id>` fields as [{ id, value }] (only ids that are whole numbers). */
function fieldsOf(input: Record<string, unknown>, prefix: string): { id: number; value: unknown }[] {
  const out: { id: number; value: unknown }[] = [];
  for (const [k, v] of Object.entries(input)) {
    const m = new RegExp(`^${prefix}-(\\d{1,9})$`).exec(k);
    if (m) out.push({ id: Number(m[1]), value: v });
  }
  return out;
}

const requestItem = z.object({
  orderItemId: z.coerce.number({ error: message('return-line-unknown') }).int(message('return-line-unknown')).positive(message('return-line-unknown')),
  quantity: whole(message('return-nothing-chosen')),
  exchangeVariantId: z.preprocess(blank, z.coerce.number({ error: message('return-exchange-unavailable') }).int().positive().optional()),
});

export const returnRequestSchema = z
  .preprocess(
    (raw) => {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
      const input = raw as Record<string, unknown>;
      if (input.items !== undefined) return input;
      const exchanges = new Map(fieldsOf(input, 'exchange').map((f) => [f.id, f.value]));
      return { ...input, items: fieldsOf(input, 'quantity').map((f) => ({ orderItemId: f.id, quantity: f.value, exchangeVariantId: exchanges.get(f.id) })) };
    },
    z.object({
      items: z.array(requestItem, { error: message('return-nothing-chosen') }).max(100),
      reason: z.enum(RETURN_REASONS, { error: message('return-reason-required') }),
      resolution: z.enum(RETURN_RESOLUTIONS, { error: message('return-resolution-required') }),
      method: z.enum(RETURN_METHODS, { error: message('return-method-required') }),
    }),
  )
  .transform((v, ctx) => {
    const items = v.items.filter((i) => i.quantity > 0);
    if (items.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['items'], message: message('return-nothing-chosen') });
      return z.NEVER;
    }
    if (v.resolution === 'exchange' && items.some((i) => i.exchangeVariantId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['items'], message: message('return-exchange-unavailable') });
      return z.NEVER;
    }
    // A form may leave an exchange choice selected when the shopper then asks for money back: it is not one.
    return { ...v, items: v.resolution === 'exchange' ? items : items.map(({ exchangeVariantId: _e, ...i }) => i) };
  });
export type ReturnRequestInput = z.output<typeof returnRequestSchema>;

const receivedItem = z.object({
  id: z.coerce.number().int().positive(),
  received: whole(message('return-received-range')),
  damaged: z.preprocess((v) => blank(v) ?? 0, whole(message('return-received-range'))),
});

export const returnActionSchema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const input = raw as Record<string, unknown>;
    if (input.action !== 'receive' || input.items !== undefined) return input;
    const damaged = new Map(fieldsOf(input, 'damaged').map((f) => [f.id, f.value]));
    const received = fieldsOf(input, 'received');
    return received.length ? { ...input, items: received.map((f) => ({ id: f.id, received: f.value, damaged: damaged.get(f.id) })) } : input;
  },
  z.discriminatedUnion(
    'action',
    [
      z.object({ action: z.literal('approve') }),
      z.object({ action: z.literal('reject'), reason: text('reason', 500).min(1, message('reason-required')) }),
      z.object({ action: z.literal('receive'), items: z.array(receivedItem).max(100).optional() }),
      z.object({
        action: z.literal('refund'),
        cashBy: z.preprocess(blank, z.enum(CASH_REFUND_METHODS).optional()),
        transferReference: z.preprocess(blank, text('transferReference', 100).optional()),
      }),
      z.object({ action: z.literal('credit') }),
      // The replacement is booked with the market's courier, whose booking gives the tracking number.
      z.object({ action: z.literal('ship') }),
    ],
    { error: message('return-action-required') },
  ),
);
export type ReturnActionInput = z.output<typeof returnActionSchema>;
export { RETURN_ACTIONS };

/** The back office's Returns queue filter: 'open' (not yet settled, the default), a status, or 'all'. */
export const returnQueueSchema = z.object({
  status: z.preprocess((v) => (v === '' || v === undefined ? 'open' : v), z.enum(['open', 'all', ...RETURN_STATUSES], { error: message('return-action-required') })),
  page: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(100_000).optional()),
  ...cursorFields,
});

/** Staff grant (positive) or remove (negative) store credit: major units, a market's currency, a reason. */
export const creditGrantSchema = z.object({
  amount: z.coerce
    .number({ error: message('credit-amount-required') })
    .finite(message('credit-amount-required'))
    .refine((v) => v !== 0 && Math.abs(v) <= 100_000_000, message('credit-amount-required'))
    .transform((v) => toMinor(v)),
  currency: z.enum(CURRENCY_CODES, { error: message('credit-currency-required') }),
  reason: z.preprocess((v) => v ?? '', text('reason', 300).min(1, message('reason-required'))),
});

/** "Get help with this order": a topic and a message. */
export const helpRequestSchema = z.object({
  topic: z.enum(HELP_TOPICS, { error: message('help-topic-required') }),
  message: z.preprocess((v) => v ?? '', text('message', HELP_MESSAGE_MAX, { multiline: true }).min(1, message('help-message-required'))),
});

/** Staff on a help request: an answer (`message`), or `{ action: 'close' }`. */
export const helpStaffSchema = z.union([
  z.object({ action: z.literal('close') }),
  z.object({ message: z.preprocess((v) => v ?? '', text('message', HELP_MESSAGE_MAX, { multiline: true }).min(1, message('help-message-required'))) }),
]);

export const helpQueueSchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(HELP_STATUSES).optional()),
  page: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(100_000).optional()),
  ...cursorFields,
});
