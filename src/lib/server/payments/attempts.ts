import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { Conflict, Invalid } from '@/lib/domain/errors';
import type { CurrencyCode } from '@/lib/domain/money';
import { message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pgError } from '@/lib/server/infra/db/pg-errors';
import { payments } from '@/lib/server/payments/tables';
import { returnUrl } from './pages';
import type { PaymentProvider } from './port';
import type { PaymentRows } from './rows';
import type { DifferenceSnapshot, PaymentSnapshot } from './snapshots';
import type { CheckoutAttempt, CheckoutGuard, StartedAttempt } from './types';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

/**
 * A payment's row and its holds, started once per checkout attempt (docs/decisions/0020): the
 * attempt's key and the digest of what it asked for, the cart's row lock, and an open payment of the
 * same cart asking for the same answered instead of a second one. Checkouts and exchange differences
 * (checkouts.ts) start their payments here.
 */

/**
 * An open checkout payment of the same cart asking for exactly the same is that attempt again (a
 * double tap, a form sent twice, going back from the payment page) for this long: it is answered
 * instead of a second payment. After that the shopper's new start replaces it (ADR 0011).
 */
export const SAME_CHECKOUT_REUSE_MS = 30 * 60_000;

/** JSON with its keys sorted: a snapshot read back from jsonb compares equal to the one written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a checkout attempt asked for, as kept beside its key. */
export const digestOf = (request: Record<string, unknown>) => createHash('sha256').update(canonicalJson(request)).digest('hex');

/** Whether the cart still holds exactly the lines that were priced. */
function holdsLines(held: { variantId: number; quantity: number }[], lines: { variantId: number; quantity: number }[]): boolean {
  if (held.length !== lines.length) return false;
  const want = new Map(lines.map((l) => [l.variantId, l.quantity]));
  return held.every((h) => want.get(h.variantId) === h.quantity);
}

/** Paystack allows letters, digits, '-', '.' and '='. */
const newReferenceAt = (now: Date) => `ML-${now.getTime().toString(36).toUpperCase()}-${randomBytes(8).toString('hex')}`;

export type StartInput = {
  userId: string;
  email: string;
  currency: CurrencyCode;
  snapshot: PaymentSnapshot | DifferenceSnapshot;
  hold?: ((tx: Tx, paymentId: string) => Promise<void>) | undefined;
  guard?: CheckoutGuard | undefined;
  attempt?: CheckoutAttempt | undefined;
};
export type Started = { reference: string; paymentId: string } | { existing: StartedAttempt };
export type StartPayment = (
  input: StartInput,
  how: { provider: PaymentProvider['name'] | 'on_delivery' | 'store_credit'; amountMinor: number; status: typeof PAYMENT_STATUSES.initialized | typeof PAYMENT_STATUSES.paid },
) => Promise<Started>;

export function createStartPayment({ db, clock, rows }: { db: Db; clock: () => Date; rows: PaymentRows }): StartPayment {
  const newReference = () => newReferenceAt(clock());

  /**
   * The payment row of a checkout and its holds (a discount code's place, store credit), in one
   * transaction. A checkout attempt takes its cart's row lock first; then the payment its key
   * started, or an open payment of the cart asking for exactly the same, is that attempt again
   * (`existing`: nothing new is created or held); a payment of the cart paid and being placed
   * refuses a different start; and a cart that no longer holds what was priced is looked at again.
   */
  async function startPayment(
    input: StartInput,
    how: { provider: PaymentProvider['name'] | 'on_delivery' | 'store_credit'; amountMinor: number; status: typeof PAYMENT_STATUSES.initialized | typeof PAYMENT_STATUSES.paid },
  ): Promise<Started> {
    const { snapshot, attempt } = input;
    const purpose = 'kind' in snapshot ? { purpose: 'exchange_difference' as const, returnId: snapshot.returnId, cartId: null } : { purpose: 'checkout' as const, cartId: snapshot.cartId };
    const reference = newReference();
    const chargesNothing = how.provider === 'on_delivery' || how.provider === 'store_credit';
    const started = { reference: payments.reference, provider: payments.provider, userId: payments.userId, requestDigest: payments.requestDigest };
    try {
      return await db.transaction(async (tx): Promise<Started> => {
        await input.guard?.lock(tx);
        if (attempt && !('kind' in snapshot)) {
          const held = await attempt.lockCart(tx);
          if (attempt.key) {
            const [same] = await tx
              .select(started)
              .from(payments)
              .where(and(eq(payments.userId, input.userId), eq(payments.idempotencyKey, attempt.key)));
            if (same) {
              if (same.requestDigest !== digestOf(attempt.request)) throw new Conflict(message('checkout-key-reused'));
              return { existing: same };
            }
          }
          const open = await tx
            .select({ ...started, status: payments.status, snapshot: payments.snapshot, createdAt: payments.createdAt })
            .from(payments)
            .where(and(eq(payments.cartId, snapshot.cartId), eq(payments.purpose, 'checkout'), inArray(payments.status, [PAYMENT_STATUSES.initialized, PAYMENT_STATUSES.paid])))
            .orderBy(desc(payments.createdAt));
          const asked = canonicalJson(snapshot);
          for (const p of open) {
            const same = canonicalJson(p.snapshot) === asked;
            if (p.status === PAYMENT_STATUSES.paid) {
              // Paid online, its shopper not back yet: the return, webhook or reconciliation places it; this start is another.
              if (p.provider !== 'on_delivery' && p.provider !== 'store_credit') continue;
              // Charging nothing, it is being placed at this moment by the start that made it: the same start is
              // answered with that order, and a different one waits for it.
              if (same) return { existing: p };
              throw new Conflict(message('checkout-in-progress'));
            }
            if (same && p.createdAt.getTime() > clock().getTime() - SAME_CHECKOUT_REUSE_MS) return { existing: p };
          }
          if (!holdsLines(held, snapshot.lines)) throw held.length === 0 ? new Invalid(message('cart-empty')) : new Conflict(message('cart-changed-at-checkout'));
        }
        await input.guard?.check(tx);
        const paymentId = await rows.insert(tx, {
          reference,
          userId: input.userId,
          ...purpose,
          ...how,
          currency: input.currency,
          email: input.email,
          snapshot: input.snapshot,
          idempotencyKey: attempt?.key ?? null,
          requestDigest: attempt ? digestOf(attempt.request) : null,
          // Nothing to pay online: the shopper goes straight to the return page, which finds the order.
          authorizationUrl: chargesNothing ? returnUrl(input.snapshot.callbackUrl, reference) : null,
        });
        await input.hold?.(tx, paymentId);
        return { reference, paymentId };
      });
    } catch (err) {
      // The same key started by another server at this very moment (the unique index): that start is the answer.
      if (attempt?.key && pgError(err).code === '23505') {
        const [same] = await db
          .select(started)
          .from(payments)
          .where(and(eq(payments.userId, input.userId), eq(payments.idempotencyKey, attempt.key)));
        if (same && same.requestDigest === digestOf(attempt.request)) return { existing: same };
        if (same) throw new Conflict(message('checkout-key-reused'));
      }
      throw err;
    }
  }
  return startPayment;
}
