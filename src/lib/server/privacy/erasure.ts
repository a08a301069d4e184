import { and, eq, gt, inArray, notInArray } from 'drizzle-orm';
import { FINAL_RETURN_STATUSES } from '@/lib/domain/after-sales';
import { Conflict, Forbidden, NotFound } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { anonymousEmail, cutAddress, type DeletionBlocker } from '@/lib/domain/privacy';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';
import { eraseAccountRow } from '@/lib/server/accounts/accounts';
import { eraseAddressesOf } from '@/lib/server/accounts/addresses';
import { eraseCodesOf } from '@/lib/server/accounts/codes';
import { eraseFavouritesOf } from '@/lib/server/accounts/favourites';
import { forgetVerifiedNumber } from '@/lib/server/accounts/phone-verification';
import { ownNumbers } from './own-numbers';
import { endSessionsOf, type SessionService } from '@/lib/server/accounts/sessions';
import { eraseHelpOf } from '@/lib/server/aftersales/help';
import { forfeitCreditOf } from '@/lib/server/aftersales/store-credit';
import { scrubAuditOf } from '@/lib/server/backoffice/audit';
import { eraseDevicesOf } from '@/lib/server/backoffice/staff';
import { eraseCartOf } from '@/lib/server/cart/cart';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { returns, storeCreditBalances } from '@/lib/server/aftersales/tables';
import { orders } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { eraseMailsOf } from '@/lib/server/infra/mail';
import type { MediaService } from '@/lib/server/infra/media';
import { eraseCountersOf } from '@/lib/server/infra/rate-limit';
import { eraseSubscriptionOf } from '@/lib/server/newsletter/newsletter';
import { eraseBackInStockOf } from '@/lib/server/catalogue/back-in-stock';
import { eraseTextsTo } from '@/lib/server/notifications/outbox';
import { returnAskedBy } from '@/lib/server/aftersales/returns/rows';
import { anonymiseOrdersOf } from '@/lib/server/orders/order-placing';
import { anonymisePaymentsOf } from '@/lib/server/payments/rows';
import { unbindCodesFrom } from '@/lib/server/promotions/rows';

/** What stands between an account and its deletion: orders on their way, open returns, payments being confirmed, and the credit it would give up. */
export interface DeletionCheck {
  blockers: DeletionBlocker[];
  credit: { currency: CurrencyCode; balanceMinor: number; shown: string }[];
}

const ERASED_NAME = cutAddress({ id: '', name: '', country: 'nigeria', state: '', city: '', address: '', zipCode: '' }).name;

/**
 * Deleting an account (the shopper's own, or staff answering a request): the person is erased and
 * the books are kept. In one transaction, each table through its owner: payments and orders keep
 * their amounts under the anonymous id with a delivery's address cut to city and state; the store
 * credit left is given up as a ledger row; the cart, addresses, favourites, help threads, newsletter
 * consent, kept mails and texts, codes, counters, sessions and confirmed browsers are deleted; the
 * audit log's mentions are scrubbed; the account row keeps only its id.
 */
export function createErasure({ db, clock, sessions, media }: { db: Db; clock: () => Date; sessions: SessionService; media: MediaService }) {
  async function check(userId: string, tx: Db | Tx = db): Promise<DeletionCheck> {
    const open = await tx
      .select({ trackingNumber: orders.trackingNumber })
      .from(orders)
      .where(and(eq(orders.userId, userId), inArray(orders.status, ['pending', 'processed'])))
      .limit(5);
    const openReturns = await tx
      .select({ reference: returns.reference })
      .from(returns)
      .where(and(eq(returnAskedBy, userId), notInArray(returns.status, [...FINAL_RETURN_STATUSES])))
      .limit(5);
    // Money on its way (a transfer sent, a card paid): it becomes an order or a refund first.
    const moving = await tx
      .select({ reference: payments.reference })
      .from(payments)
      .where(and(eq(payments.userId, userId), inArray(payments.status, [PAYMENT_STATUSES.pending, PAYMENT_STATUSES.paid])))
      .limit(5);
    const credit = await tx
      .select({ currency: storeCreditBalances.currency, balanceMinor: storeCreditBalances.balanceMinor })
      .from(storeCreditBalances)
      .where(and(eq(storeCreditBalances.userId, userId), gt(storeCreditBalances.balanceMinor, 0)));
    return {
      blockers: [
        ...open.map((o) => ({ kind: 'order' as const, trackingNumber: o.trackingNumber })),
        ...openReturns.map((r) => ({ kind: 'return' as const, reference: r.reference })),
        ...moving.map((p) => ({ kind: 'payment' as const, reference: p.reference })),
      ],
      credit: credit.map((c) => ({
        currency: c.currency as CurrencyCode,
        balanceMinor: c.balanceMinor,
        shown: formatMoney(toMajor(c.balanceMinor), c.currency as CurrencyCode),
      })),
    };
  }

  return {
    check,

    /**
     * Deletes the account. Refused (409) while an order is on its way, a return is open or a payment
     * is being confirmed, and while store credit is left unless `giveUpCredit`. Staff and owner
     * accounts are refused: a role is revoked first (backoffice/staff.ts).
     */
    async erase(userId: string, opts: { giveUpCredit: boolean }): Promise<void> {
      const at = clock();
      const gone = await db.transaction(async (tx) => {
        // FOR NO KEY UPDATE: a checkout of this shopper inserts its payment (a key share of this row)
        // while it holds its cart, which this transaction deletes below; a FOR UPDATE here would make
        // the two wait for each other. Two erasures, or a pay-on-delivery start (FOR UPDATE), still
        // take turns on it.
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
        if (!user) throw new NotFound(message('customer-not-found'));
        if (user.erasedAt) throw new Conflict(message('account-already-deleted'));
        if (user.role !== 'customer') throw new Forbidden(message('account-delete-staff'));
        const { blockers, credit } = await check(userId, tx);
        const first = blockers[0];
        if (first) throw new Conflict(message(first.kind === 'order' ? 'account-delete-wait-order' : first.kind === 'return' ? 'account-delete-wait-return' : 'account-delete-wait-payment'));
        if (credit.length > 0 && !opts.giveUpCredit) throw new Conflict(fill('account-delete-credit', credit[0]!.shown));
        const email = user.email;
        const phone = user.phoneNumber;
        // Money first, in the documented lock order: payments, orders, then the cart, then credit (a
        // checkout's start spends credit under its cart's lock: the cart before the credit, always).
        await anonymisePaymentsOf(tx, userId, anonymousEmail(userId), ERASED_NAME);
        await anonymiseOrdersOf(tx, userId, ERASED_NAME);
        await eraseCartOf(tx, userId);
        await forfeitCreditOf(tx, userId, at);
        await eraseAddressesOf(tx, userId);
        await eraseFavouritesOf(tx, userId);
        await eraseHelpOf(tx, userId);
        await eraseSubscriptionOf(tx, email);
        await eraseBackInStockOf(tx, email);
        await unbindCodesFrom(tx, email, anonymousEmail(userId));
        await eraseMailsOf(tx, email);
        for (const number of await ownNumbers(tx, user)) await eraseTextsTo(tx, number);
        await eraseCodesOf(tx, email, phone);
        await eraseCountersOf(tx, email, userId);
        await endSessionsOf(tx, userId);
        await eraseDevicesOf(tx, userId);
        await forgetVerifiedNumber(tx, userId);
        await scrubAuditOf(tx, [email, phone, `${user.firstName} ${user.lastName}`]);
        await eraseAccountRow(tx, userId, at);
        return { imageHash: user.imageHash };
      });
      // After the commit: the shown sessions on every app server, and the picture nothing shows any more.
      await sessions.forgetUser(userId);
      if (gone.imageHash) await media.discardIfUnused(gone.imageHash);
    },
  };
}
export type Erasure = ReturnType<typeof createErasure>;
