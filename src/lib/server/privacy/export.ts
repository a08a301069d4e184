import { asc, desc, eq, inArray, or } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { countryName } from '@/lib/domain/geo';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { returnAskedBy } from '@/lib/server/aftersales/returns/rows';
import type { Db } from '@/lib/server/infra/db/client';
import { addresses, favourites, sessions, users } from '@/lib/server/accounts/tables';
import { helpMessages, helpRequests, returnItems, returns, storeCreditBalances, storeCreditEntries } from '@/lib/server/aftersales/tables';
import { products } from '@/lib/server/catalogue/tables';
import { mailOutbox } from '@/lib/server/infra/tables';
import { newsletterConsentEvents, newsletterSubscriptions } from '@/lib/server/newsletter/tables';
import { textOutbox, whatsappOutbox } from '@/lib/server/notifications/tables';
import { ownNumbers } from './own-numbers';
import { orderEvents, orderItems, orderMoney, orders, owedRefunds } from '@/lib/server/orders/tables';
import { payments } from '@/lib/server/payments/tables';
import { promotionCodes } from '@/lib/server/promotions/tables';

const money = (minor: number, currency: string) => formatMoney(toMajor(minor), currency as CurrencyCode);
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * "Download my data": everything the store holds about one shopper, as one JSON document that a
 * person can read (its `summary` says it in sentences) and a program can take elsewhere
 * (portability). Only the shopper's own rows; never a password's hash, a session's or a code's.
 * Reads only: every table stays written by its owner.
 */
export function createDataExport({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    async of(userId: string) {
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      if (!user) throw new NotFound(message('customer-not-found'));
      const phones = await ownNumbers(db, user);

      const [addressRows, orderRows, paymentRows, returnRows, creditBalances, creditEntries, favouriteRows, subscription, consentEvents, helpRows, mails, texts, sessionRows, codes] =
        await Promise.all([
          db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.createdAt)),
          db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt)),
          db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.createdAt)),
          db.select().from(returns).where(eq(returnAskedBy, userId)).orderBy(asc(returns.createdAt)),
          db.select().from(storeCreditBalances).where(eq(storeCreditBalances.userId, userId)),
          db.select().from(storeCreditEntries).where(eq(storeCreditEntries.userId, userId)).orderBy(asc(storeCreditEntries.id)),
          db
            .select({ productId: favourites.productId, name: products.name, addedAt: favourites.createdAt })
            .from(favourites)
            .innerJoin(products, eq(products.id, favourites.productId))
            .where(eq(favourites.userId, userId))
            .orderBy(desc(favourites.createdAt)),
          db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, user.email)).limit(1),
          db.select().from(newsletterConsentEvents).where(eq(newsletterConsentEvents.email, user.email)).orderBy(asc(newsletterConsentEvents.id)),
          db.select().from(helpRequests).where(eq(helpRequests.userId, userId)).orderBy(asc(helpRequests.createdAt)),
          db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email)).orderBy(asc(mailOutbox.id)),
          phones.length > 0 ? db.select().from(textOutbox).where(inArray(textOutbox.to, phones)).orderBy(asc(textOutbox.id)) : Promise.resolve([]),
          db.select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt }).from(sessions).where(eq(sessions.userId, userId)),
          db.select({ code: promotionCodes.code, expiresAt: promotionCodes.expiresAt, redemptions: promotionCodes.redemptions }).from(promotionCodes).where(eq(promotionCodes.email, user.email)),
        ]);

      const whatsappSent = phones.length > 0 ? await db.select().from(whatsappOutbox).where(inArray(whatsappOutbox.to, phones)).orderBy(asc(whatsappOutbox.id)) : [];
      const orderIds = orderRows.map((o) => o.id);
      const returnIds = returnRows.map((r) => r.id);
      const helpIds = helpRows.map((h) => h.id);
      const [lines, moneyRows, owedRows, events, returnLines, helpThread] = await Promise.all([
        orderIds.length ? db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.id)) : Promise.resolve([]),
        orderIds.length ? db.select().from(orderMoney).where(inArray(orderMoney.orderId, orderIds)).orderBy(asc(orderMoney.id)) : Promise.resolve([]),
        orderIds.length
          ? db
              .select({
                orderId: owedRefunds.orderId,
                id: owedRefunds.id,
                paymentReference: payments.reference,
                returnId: owedRefunds.returnId,
                amountMinor: owedRefunds.amountMinor,
                currency: owedRefunds.currency,
                destination: owedRefunds.destination,
                reason: owedRefunds.reason,
                status: owedRefunds.status,
                attempts: owedRefunds.attempts,
                lastAnswer: owedRefunds.lastAnswer,
                paidAt: owedRefunds.paidAt,
                createdAt: owedRefunds.createdAt,
              })
              .from(owedRefunds)
              .leftJoin(payments, eq(payments.id, owedRefunds.paymentId))
              .where(inArray(owedRefunds.orderId, orderIds))
              .orderBy(asc(owedRefunds.createdAt))
          : Promise.resolve([]),
        orderIds.length
          ? db.select({ orderId: orderEvents.orderId, fromStatus: orderEvents.fromStatus, toStatus: orderEvents.toStatus, at: orderEvents.createdAt }).from(orderEvents).where(inArray(orderEvents.orderId, orderIds)).orderBy(asc(orderEvents.id))
          : Promise.resolve([]),
        returnIds.length ? db.select().from(returnItems).where(inArray(returnItems.returnId, returnIds)).orderBy(asc(returnItems.id)) : Promise.resolve([]),
        helpIds.length
          ? db
              .select({ requestId: helpMessages.requestId, fromStaff: helpMessages.fromStaff, body: helpMessages.body, at: helpMessages.createdAt })
              .from(helpMessages)
              .where(or(inArray(helpMessages.requestId, helpIds)))
              .orderBy(asc(helpMessages.id))
          : Promise.resolve([]),
      ]);

      const sub = subscription[0];
      const profile = {
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        phoneNumber: user.phoneNumber,
        country: user.country,
        picture: user.imageHash ? `/media/${user.imageHash}` : null,
        emailVerifiedAt: user.verifiedAt,
        createdAt: user.createdAt,
      };
      const summary = {
        title: `Your data at ${STORE_NAME}`,
        generatedAt: clock().toISOString(),
        about: `Everything ${STORE_NAME} holds about ${user.firstName} ${user.lastName} (${user.email}). The sections after this summary hold each record in full.`,
        lines: [
          `Account created on ${day(user.createdAt)}, in ${countryName(user.country)}; phone ${user.phoneNumber || 'none'}; ${user.imageHash ? 'a profile picture' : 'no profile picture'}.`,
          `${addressRows.length} saved address${addressRows.length === 1 ? '' : 'es'}.`,
          `${orderRows.length} order${orderRows.length === 1 ? '' : 's'}${orderRows.length ? `: ${orderRows.map((o) => `${o.trackingNumber} (${day(o.createdAt)}, ${o.status}, ${money(o.totalMinor, o.currency)})`).join('; ')}` : ''}.`,
          `${paymentRows.length} payment${paymentRows.length === 1 ? '' : 's'}. We never store card details: only the payment provider's reference.`,
          `${returnRows.length} return${returnRows.length === 1 ? '' : 's'} or exchange${returnRows.length === 1 ? '' : 's'}.`,
          `Store credit: ${creditBalances.length ? creditBalances.map((b) => money(b.balanceMinor, b.currency)).join(', ') : 'none'} (${creditEntries.length} ledger entr${creditEntries.length === 1 ? 'y' : 'ies'}).`,
          `${favouriteRows.length} favourite${favouriteRows.length === 1 ? '' : 's'}.`,
          `Newsletter: ${sub ? `${sub.status} (since ${day(sub.createdAt)}, from the ${sub.source} page)` : 'not subscribed'}; ${consentEvents.length} consent change${consentEvents.length === 1 ? '' : 's'} recorded.`,
          `Order updates by ${user.updatesChannel === 'none' ? 'mail only' : user.updatesChannel === 'whatsapp' ? 'WhatsApp' : 'text message'}; phone ${user.phoneVerifiedNumber && user.phoneVerifiedNumber === user.phoneNumber ? 'verified' : 'not verified'}.`,
          `${helpRows.length} help request${helpRows.length === 1 ? '' : 's'}.`,
          `${mails.length} e-mail${mails.length === 1 ? '' : 's'} and ${texts.length} text message${texts.length === 1 ? '' : 's'} we sent you and still keep.`,
          `${sessionRows.length} signed-in session${sessionRows.length === 1 ? '' : 's'}.`,
        ],
      };

      return {
        summary,
        profile,
        addresses: addressRows.map(({ userId: _u, ...a }) => a),
        orders: orderRows.map(({ userId: _u, ...o }) => ({
          ...o,
          total: money(o.totalMinor, o.currency),
          lines: lines.filter((l) => l.orderId === o.id).map(({ orderId: _o, ...l }) => l),
          money: moneyRows.filter((m) => m.orderId === o.id).map(({ orderId: _o, ...m }) => m),
          // What the store owes back on the order, and whether it has been paid (the refund worker's rows).
          refundsOwed: owedRows.filter((w) => w.orderId === o.id).map(({ orderId: _o, ...w }) => ({ ...w, amount: money(w.amountMinor, w.currency) })),
          history: events.filter((e) => e.orderId === o.id).map(({ orderId: _o, ...e }) => e),
        })),
        payments: paymentRows.map((p) => ({
          reference: p.reference,
          provider: p.provider,
          purpose: p.purpose,
          status: p.status,
          channel: p.channel,
          amountMinor: p.amountMinor,
          amount: money(p.amountMinor, p.currency),
          currency: p.currency,
          refundedMinor: p.refundedMinor,
          refundedAt: p.refundedAt,
          email: p.email,
          checkout: p.snapshot,
          createdAt: p.createdAt,
        })),
        returns: returnRows.map(({ userId: _u, creditUserId: _c, settlingAt: _s, ...r }) => ({ ...r, items: returnLines.filter((i) => i.returnId === r.id).map(({ returnId: _r, ...i }) => i) })),
        storeCredit: {
          balances: creditBalances.map((b) => ({ currency: b.currency, balanceMinor: b.balanceMinor, balance: money(b.balanceMinor, b.currency) })),
          ledger: creditEntries.map(({ userId: _u, actorId: _a, ...e }) => e),
        },
        favourites: favouriteRows,
        consents: {
          newsletter: sub ? { email: sub.email, status: sub.status, source: sub.source, subscribedAt: sub.createdAt, confirmedAt: sub.confirmedAt, unsubscribedAt: sub.unsubscribedAt } : null,
          history: consentEvents.map((e) => ({ action: e.action, source: e.source, at: e.createdAt })),
          discountCodesIssuedToYou: codes,
        },
        textMessages: {
          orderUpdates: user.updatesChannel === 'text',
          updatesChannel: user.updatesChannel,
          phoneNumber: user.phoneNumber,
          verifiedNumber: user.phoneVerifiedNumber,
        },
        helpRequests: helpRows.map(({ userId: _u, ...h }) => ({ ...h, messages: helpThread.filter((m) => m.requestId === h.id).map(({ requestId: _r, ...m }) => m) })),
        mailsSent: mails.map((m) => ({ to: m.to, subject: m.subject, text: m.text, sentAt: m.createdAt })),
        textsSent: texts.map((t) => ({ to: t.to, body: t.body, sentAt: t.createdAt })),
        whatsappSent: whatsappSent.map((w) => ({ to: w.to, template: w.template, body: w.body, sentAt: w.createdAt })),
        sessions: sessionRows,
      };
    },
  };
}
export type DataExport = ReturnType<typeof createDataExport>;

/** The download's file name: the store, the word "data", the day. */
export function exportFileName(at: Date): string {
  return `${STORE_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-my-data-${at.toISOString().slice(0, 10)}.json`;
}
