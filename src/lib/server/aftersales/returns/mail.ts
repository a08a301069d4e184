import { eq, sql } from 'drizzle-orm';
import { returnNextSteps, type ReturnDto } from '@/lib/domain/after-sales';
import type { ReturnActionInput } from '@/lib/domain/after-sales-input';
import { STORE_NAME } from '@/lib/domain/brand';
import type { MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { formatMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { formatAddress, pickupLocationForMarket } from '@/lib/domain/shipping';
import type { Db } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { returns } from '@/lib/server/aftersales/tables';
import { orders } from '@/lib/server/orders/tables';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { ReturnSplit } from './money';
import { creditNotesOfReturn, documentMailLine } from '@/lib/server/books/documents';

const money = (minor: number, currency: string) => formatMoney(toMajor(minor), currency as CurrencyCode);
const updateSubject = (ret: ReturnDto) => `${message('return-update')}: ${ret.statusLabel.toLowerCase()}`;

/**
 * What the shopper is told at each step of their return, by mail. A gift's return (credit_user_id,
 * ADR 0045) is the recipient's: they are told, at the e-mail of the account the credit goes to, with
 * a link to that account; the buyer who gave the gift is told nothing of it.
 */
export function createReturnMails(deps: { db: Db; log: Logger; mailer: Mailer; siteUrl: string }) {
  const { db, log, mailer } = deps;

  /** Tells the shopper what became of their return (never throws: a lost mail is logged). */
  async function mailShopper(ret: ReturnDto, subject: string, lines: string[]): Promise<void> {
    try {
      const [row] = await db
        .select({ email: users.email, firstName: users.firstName, trackingNumber: orders.trackingNumber, gift: sql<boolean>`${returns.creditUserId} is not null` })
        .from(returns)
        .innerJoin(users, eq(users.id, sql`coalesce(${returns.creditUserId}, ${returns.userId})`))
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(eq(returns.id, ret.id))
        .limit(1);
      if (!row) return;
      const link = new URL(row.gift ? '/profile' : `/order-details/${ret.orderId}`, deps.siteUrl).toString();
      const items = ret.items.map((i) => `${i.quantity} × ${i.productName}${i.exchange ? ` → ${[i.exchange.color, i.exchange.size].filter(Boolean).join(', ')}` : ''}`);
      await mailer.send({
        to: row.email,
        subject: `${subject} (${ret.reference}, order ${row.trackingNumber})`,
        text: `Hello ${row.firstName},\n\n${lines.join('\n')}\n\n${items.join('\n')}\n\n${row.gift ? 'Your account' : 'Your order'}: ${link}\n\n${STORE_NAME}\n`,
        html: mailHtml(
          subject,
          `<p>Hello ${escapeHtml(row.firstName)},</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul><p><a href="${escapeHtml(link)}">${row.gift ? 'See your account' : 'See your order'}</a></p>`,
        ),
      });
    } catch (err) {
      log.error('return mail failed', { err, returnId: ret.id });
    }
  }

  /** The credit notes the return's money made, each with its PDF's link (none where the market is not registered). */
  async function creditNoteLines(ret: ReturnDto): Promise<string[]> {
    return (await creditNotesOfReturn(db, ret.id)).map((d) => documentMailLine(d, deps.siteUrl));
  }

  return {
    /** "Return or exchange" received: what happens next, by the method the shopper chose. */
    requested: (ret: ReturnDto, market: MarketCode) =>
      mailShopper(ret, message('return-requested'), [
        `You asked for ${ret.resolutionLabel.toLowerCase()}, because "${ret.reasonLabel}".`,
        ...returnNextSteps(ret, formatAddress(pickupLocationForMarket(market))),
      ]),

    /** A staff step other than the refund. */
    async acted(ret: ReturnDto, action: Exclude<ReturnActionInput['action'], 'refund'>) {
      const lines: Record<typeof action, string[]> = {
        approve: [ret.method === 'drop_off' ? 'Your return is approved. Bring the pieces to our boutique with the order number.' : 'Your return is approved. Our courier will collect the pieces from your delivery address.'],
        reject: [`We cannot accept this return: ${ret.rejectionReason ?? ''}`, ...(ret.differencePaid ? [`The difference you paid, ${money(Math.round(ret.difference * 100), ret.currency)}, is on its way back to your payment.`] : [])],
        receive: ['We have received the pieces you sent back.'],
        credit: [`${money(Math.round(ret.credited * 100), ret.currency)} has been added to your store credit.`, ...(action === 'credit' ? await creditNoteLines(ret) : [])],
        ship: ['Your new piece is packed and booked with our courier. We will tell you when it is on its way; follow it on your order page.', ...(ret.credited > 0 ? [`The difference, ${money(Math.round(ret.credited * 100), ret.currency)}, has been added to your store credit.`] : [])],
      };
      return mailShopper(ret, updateSubject(ret), lines[action]);
    },

    /** The refund: where each part of the money went. */
    refunded: async (ret: ReturnDto, split: ReturnSplit) =>
      mailShopper(ret, updateSubject(ret), [
        ...(split.toPaymentMinor > 0 ? [`${money(split.toPaymentMinor, ret.currency)} is on its way back to your payment.`] : []),
        ...(split.toCreditMinor > 0 ? [`${money(split.toCreditMinor, ret.currency)} has been added to your store credit.`] : []),
        ...(split.byTransferMinor > 0 ? [`${money(split.byTransferMinor, ret.currency)} has been sent to you by bank transfer (reference ${ret.transferReference ?? ''}).`] : []),
        ...(split.toPaymentMinor + split.toCreditMinor + split.byTransferMinor === 0 ? [message('refund-order-nothing-left')] : []),
        ...(await creditNoteLines(ret)),
      ]),
  };
}
export type ReturnMails = ReturnType<typeof createReturnMails>;
