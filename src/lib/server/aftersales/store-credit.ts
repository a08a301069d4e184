import { and, desc, eq, sql } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import { users } from '@/lib/server/accounts/tables';
import type { StoreCreditKind } from '@/lib/domain/after-sales';
import { message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { storeCreditBalances, storeCreditEntries } from '@/lib/server/aftersales/tables';
import { UUID } from '@/lib/domain/validation';

/**
 * Store credit (ADR 0014): the one writer of store_credit_entries and store_credit_balances. Every
 * change is a ledger row and the same change to the shopper's balance in that currency, in the
 * caller's transaction; the balance row's conditional update (balance + delta >= 0) serialises
 * spenders, so credit is never spent twice and never goes negative. Currencies never mix.
 */

export interface CreditMove {
  userId: string;
  currency: string;
  /** Positive: credit comes in; negative: it is used or removed. */
  deltaMinor: number;
  kind: StoreCreditKind;
  reason?: string | null;
  orderId?: string | null;
  paymentId?: string | null;
  returnId?: string | null;
  actorId?: string | null;
}

/** Too little credit for the move (a checkout racing another, or staff removing more than there is). */
export class NotEnoughCredit extends Conflict {
  constructor(readonly balanceMinor: number) {
    super(message('credit-not-enough'));
  }
}

/**
 * The one way credit changes, inside `tx`: the balance (created at 0 on first use) moves by
 * `deltaMinor` unless it would go below 0 (NotEnoughCredit), and the ledger row is written.
 * Returns the new balance.
 */
export async function applyCreditMove(tx: Db | Tx, move: CreditMove, at: Date): Promise<number> {
  if (!Number.isSafeInteger(move.deltaMinor) || move.deltaMinor === 0) throw new Invalid(message('credit-change-whole'));
  await tx
    .insert(storeCreditBalances)
    .values({ userId: move.userId, currency: move.currency, balanceMinor: 0, updatedAt: at })
    .onConflictDoNothing();
  const [row] = await tx
    .update(storeCreditBalances)
    .set({ balanceMinor: sql`${storeCreditBalances.balanceMinor} + ${move.deltaMinor}`, updatedAt: at })
    .where(
      and(
        eq(storeCreditBalances.userId, move.userId),
        eq(storeCreditBalances.currency, move.currency),
        sql`${storeCreditBalances.balanceMinor} + ${move.deltaMinor} >= 0`,
      ),
    )
    .returning({ balanceMinor: storeCreditBalances.balanceMinor });
  if (!row) {
    const [now] = await tx
      .select({ balanceMinor: storeCreditBalances.balanceMinor })
      .from(storeCreditBalances)
      .where(and(eq(storeCreditBalances.userId, move.userId), eq(storeCreditBalances.currency, move.currency)));
    throw new NotEnoughCredit(now?.balanceMinor ?? 0);
  }
  await tx.insert(storeCreditEntries).values({
    userId: move.userId,
    currency: move.currency,
    deltaMinor: move.deltaMinor,
    kind: move.kind,
    reason: move.reason ?? null,
    orderId: move.orderId ?? null,
    paymentId: move.paymentId ?? null,
    returnId: move.returnId ?? null,
    actorId: move.actorId ?? null,
    createdAt: at,
  });
  return row.balanceMinor;
}

export function createStoreCreditService({ db, clock, audit, mailer, log, siteUrl }: { db: Db; clock: () => Date; audit?: AuditLog; mailer?: Mailer; log?: Logger; siteUrl?: string }) {
  /** The payment's spend, and whether it was given back already. */
  async function spendOf(tx: Db | Tx, paymentId: string) {
    const rows = await tx
      .select({ kind: storeCreditEntries.kind, deltaMinor: storeCreditEntries.deltaMinor, userId: storeCreditEntries.userId, currency: storeCreditEntries.currency })
      .from(storeCreditEntries)
      .where(eq(storeCreditEntries.paymentId, paymentId));
    return { spend: rows.find((r) => r.kind === 'spend'), released: rows.some((r) => r.kind === 'release') };
  }

  return {
    /**
     * A checkout's credit, taken in the transaction that creates its payment row (the payment's hold):
     * when another checkout spent it meanwhile, the shopper is asked to look again (Conflict).
     */
    async spend(tx: Tx, input: { userId: string; currency: string; amountMinor: number; paymentId: string }): Promise<void> {
      if (input.amountMinor <= 0) return;
      try {
        await applyCreditMove(tx, { userId: input.userId, currency: input.currency, deltaMinor: -input.amountMinor, kind: 'spend', paymentId: input.paymentId }, clock());
      } catch (err) {
        if (err instanceof NotEnoughCredit) throw new Conflict(message('credit-changed'));
        throw err;
      }
    },

    /** Gives a payment's spend back when it settles without an order (inside its settling transaction, once). */
    async release(tx: Tx, paymentId: string): Promise<void> {
      const { spend, released } = await spendOf(tx, paymentId);
      if (!spend || released) return;
      await applyCreditMove(tx, { userId: spend.userId, currency: spend.currency, deltaMinor: -spend.deltaMinor, kind: 'release', paymentId }, clock());
    },

    /** Whether a payment's spend still stands (not given back): a payment whose credit was released cannot become an order. */
    async stillSpent(tx: Tx, paymentId: string): Promise<boolean> {
      const { spend, released } = await spendOf(tx, paymentId);
      return Boolean(spend) && !released;
    },

    /**
     * Staff grant (positive) or remove (negative) credit with a reason: audited in the same
     * transaction, never below zero, and the shopper is mailed.
     */
    async grant(actor: Actor, userId: string, input: { amountMinor: number; currency: CurrencyCode; reason: string }): Promise<{ balanceMinor: number }> {
      const reason = input.reason.trim();
      if (!reason) throw new Invalid(message('reason-required'));
      if (!UUID.test(userId)) throw new NotFound(message('customer-not-found'));
      const [shopper] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId)).limit(1);
      if (!shopper) throw new NotFound(message('customer-not-found'));
      const balanceMinor = await db.transaction(async (tx) => {
        let balance: number;
        try {
          balance = await applyCreditMove(tx, { userId, currency: input.currency, deltaMinor: input.amountMinor, kind: input.amountMinor > 0 ? 'grant' : 'removal', reason, actorId: actor.id }, clock());
        } catch (err) {
          if (err instanceof NotEnoughCredit) throw new Conflict(message('credit-below-zero'));
          throw err;
        }
        await audit?.record(actor, { action: 'credit.grant', entity: 'user', entityId: userId, details: { currency: input.currency, amountMinor: input.amountMinor, reason, balanceMinor: balance } }, tx);
        return balance;
      });
      const amount = formatMoney(toMajor(Math.abs(input.amountMinor)), input.currency);
      const balance = formatMoney(toMajor(balanceMinor), input.currency);
      const line = input.amountMinor > 0 ? `We have added ${amount} to your store credit.` : `We have taken ${amount} off your store credit.`;
      const link = siteUrl ? new URL('/profile', siteUrl).toString() : '';
      try {
        await mailer?.send({
          to: shopper.email,
          subject: `Your store credit at ${STORE_NAME}`,
          text: `Hello ${shopper.firstName},\n\n${line}\nReason: ${reason}\nYour store credit is now ${balance}.\n\n${link}\n`,
          html: mailHtml('Your store credit', `<p>Hello ${escapeHtml(shopper.firstName)},</p><p>${escapeHtml(line)}</p><p>Reason: ${escapeHtml(reason)}</p><p>Your store credit is now <strong>${escapeHtml(balance)}</strong>.</p>`),
        });
      } catch (err) {
        log?.error('store credit mail failed', { err, userId });
      }
      return { balanceMinor };
    },

    /** A shopper's balance in one currency (minor units; 0 without any credit). */
    async balance(userId: string, currency: string, tx: Db | Tx = db): Promise<number> {
      const [row] = await tx
        .select({ balanceMinor: storeCreditBalances.balanceMinor })
        .from(storeCreditBalances)
        .where(and(eq(storeCreditBalances.userId, userId), eq(storeCreditBalances.currency, currency)));
      return row?.balanceMinor ?? 0;
    },

    /** What the shopper has, major units: in `currency` (the market's), and in every currency held. */
    async summary(userId: string, currency: string): Promise<{ storeCredit: number; storeCredits: { currency: string; amount: number }[] }> {
      const rows = await this.balances(userId);
      return {
        storeCredit: toMajor(rows.find((r) => r.currency === currency)?.balanceMinor ?? 0),
        storeCredits: rows.map((r) => ({ currency: r.currency, amount: toMajor(r.balanceMinor) })),
      };
    },

    /** Every currency the shopper has held credit in, with its balance. */
    async balances(userId: string): Promise<{ currency: string; balanceMinor: number }[]> {
      return db
        .select({ currency: storeCreditBalances.currency, balanceMinor: storeCreditBalances.balanceMinor })
        .from(storeCreditBalances)
        .where(eq(storeCreditBalances.userId, userId))
        .orderBy(storeCreditBalances.currency);
    },

    /** Credit coming in or going out inside the caller's transaction (a return credited, a cancellation, a checkout's spend). */
    move(tx: Db | Tx, move: CreditMove): Promise<number> {
      return applyCreditMove(tx, move, clock());
    },

    /** A shopper's ledger, newest first. */
    async history(userId: string, limit = 100) {
      return db
        .select()
        .from(storeCreditEntries)
        .where(eq(storeCreditEntries.userId, userId))
        .orderBy(desc(storeCreditEntries.createdAt), desc(storeCreditEntries.id))
        .limit(limit);
    },

    /** Balances that their ledger rows do not add up to (should be none). */
    async mismatches(): Promise<{ userId: string; currency: string; balance: number; ledger: number }[]> {
      const rows = await db.execute(sql`
        select b.user_id as "userId", b.currency, b.balance_minor::bigint as balance, coalesce(sum(e.delta_minor), 0)::bigint as ledger
        from ${storeCreditBalances} b
        left join ${storeCreditEntries} e on e.user_id = b.user_id and e.currency = b.currency
        group by b.user_id, b.currency, b.balance_minor
        having b.balance_minor <> coalesce(sum(e.delta_minor), 0)`);
      return (((rows as any).rows ?? rows) as { userId: string; currency: string; balance: string | number; ledger: string | number }[]).map((r) => ({
        ...r,
        balance: Number(r.balance),
        ledger: Number(r.ledger),
      }));
    },
  };
}
export type StoreCreditService = ReturnType<typeof createStoreCreditService>;

/**
 * An account's deletion: the credit left in each currency is given up, written as a ledger row
 * (the ledger is kept, and still adds up to the balance, now 0). Under the balances' row locks.
 */
export async function forfeitCreditOf(tx: Db | Tx, userId: string, at: Date): Promise<void> {
  const left = await tx
    .select({ currency: storeCreditBalances.currency, balanceMinor: storeCreditBalances.balanceMinor })
    .from(storeCreditBalances)
    .where(eq(storeCreditBalances.userId, userId))
    .for('update');
  for (const b of left) {
    if (b.balanceMinor > 0) await applyCreditMove(tx, { userId, currency: b.currency, deltaMinor: -b.balanceMinor, kind: 'forfeit', reason: 'Account deleted' }, at);
  }
}
