import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { giftFacts } from '@/lib/domain/gifts';
import { formatMoney, toMajor } from '@/lib/domain/money';
import { VAT_INCLUDED } from '@/lib/domain/tax-settings';
import { documentMailLine, documentsOf } from '@/lib/server/books/documents';
import type { OrderDto, OrderStatus } from '@/lib/domain/orders';
import { marketOfCurrency } from '@/lib/domain/markets';
import { lockerDelivery } from '@/lib/domain/lockers';
import { doorPaymentSentence, MARKET_COLLECTION_METHODS } from '@/lib/domain/payment-methods';
import { deliveryDirections, formatAddress } from '@/lib/domain/shipping';
import type { Db } from '@/lib/server/infra/db/client';
import { users } from '@/lib/server/accounts/tables';
import { orders } from '@/lib/server/orders/tables';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { ShopperNotifications } from '@/lib/server/notifications/notifications';

/**
 * The mails about an order: its confirmation (recorded on the order, the one writer of
 * `orders.confirmation_mailed_at`; reconciliation mails the lost ones) and its status changes,
 * with the texts to shoppers who opted in. Every line of these mails is built here.
 */

const STATUS_SUBJECTS: Record<OrderStatus, string> = {
  pending: 'We have received your order',
  processed: 'Your order is being prepared',
  delivered: 'Your order has been delivered',
  cancelled: 'Your order has been cancelled',
};

/** The status mail's first sentence: what became of the order, in words, never the status's code name. */
const STATUS_SENTENCES: Record<OrderStatus, (order: string) => string> = {
  pending: (order) => `We have received your order ${order}.`,
  processed: (order) => `Your order ${order} is being prepared.`,
  delivered: (order) => `Your order ${order} has been delivered.`,
  cancelled: (order) => `Your order ${order} has been cancelled.`,
};

export function createOrderMails({
  db,
  mailer,
  log,
  siteUrl,
  clock,
  notifications,
  load,
}: {
  db: Db;
  mailer: Mailer;
  log: Logger;
  siteUrl: string;
  clock: () => Date;
  /** Texts to shoppers who opted in (src/lib/server/notifications); never throws. */
  notifications?: ShopperNotifications | undefined;
  /** One order as its shopper reads it (order-reading.ts). */
  load(orderId: string): Promise<OrderDto | null>;
}) {
  async function ownerEmail(userId: string): Promise<{ email: string; firstName: string } | null> {
    const [u] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId)).limit(1);
    return u ?? null;
  }

  function itemsText(order: OrderDto): string {
    return order.items
      .map((i) => `- ${i.productName}${i.color ? `, ${i.color}` : ''}${i.size ? `, ${i.size}` : ''} x ${i.quantity}: ${formatMoney(i.price, order.currency)}`)
      .join('\n');
  }

  /** The order's discount and gift wrapping as mail lines ("Discount (CODE): -₦2,000"), or nothing without one. */
  function discountText(order: OrderDto): string {
    const wrap = order.giftWrap > 0 ? `Gift wrapping: ${formatMoney(order.giftWrap, order.currency)}\n` : '';
    return (order.discount > 0 ? `Discount${order.discountCode ? ` (${order.discountCode})` : ''}: -${formatMoney(order.discount, order.currency)}\n` : '') + wrap;
  }

  /** What is left to pay on delivery, and (on its own line) how the courier or the boutique takes it. */
  function dueText(order: OrderDto): string {
    if (order.amountDue <= 0) return '';
    const market = marketOfCurrency(order.currency);
    const door = market ? doorPaymentSentence(MARKET_COLLECTION_METHODS[market.code], order.deliveryOption) : '';
    return `Amount to pay on delivery: ${formatMoney(order.amountDue, order.currency)}\n${door ? `${door}\n` : ''}`;
  }

  /** A gift's lines in its confirmation: for whom, the message, the wrapping, the packing slip's prices; nothing for another order. */
  function giftLines(order: OrderDto): string[] {
    if (!order.gift) return [];
    const facts = giftFacts(order.gift);
    return [facts.forWhom, facts.message ? `Your message: “${facts.message}”` : 'No message', `${facts.wrapping}. ${facts.prices}.`];
  }

  function itemsHtml(order: OrderDto): string {
    const rows = order.items
      .map(
        (i) =>
          `<tr><td style="padding:6px 0">${escapeHtml(i.productName)}${i.color ? `, ${escapeHtml(i.color)}` : ''}${i.size ? `, ${escapeHtml(i.size)}` : ''} &times; ${i.quantity}</td><td align="right">${escapeHtml(formatMoney(i.price, order.currency))}</td></tr>`,
      )
      .join('');
    const discount =
      order.discount > 0
        ? `<tr><td style="padding:6px 0;border-top:1px solid #e8e2d8">Discount${order.discountCode ? ` (${escapeHtml(order.discountCode)})` : ''}</td><td align="right" style="border-top:1px solid #e8e2d8">-${escapeHtml(formatMoney(order.discount, order.currency))}</td></tr>`
        : '';
    const wrap = order.giftWrap > 0 ? `<tr><td style="padding:6px 0">Gift wrapping</td><td align="right">${escapeHtml(formatMoney(order.giftWrap, order.currency))}</td></tr>` : '';
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}${discount}${wrap}
<tr><td style="padding:6px 0;border-top:1px solid #e8e2d8">Shipping</td><td align="right" style="border-top:1px solid #e8e2d8">${escapeHtml(order.deliveryFee === 0 ? 'Free' : formatMoney(order.deliveryFee, order.currency))}</td></tr>
<tr><td style="padding:6px 0"><strong>Total</strong></td><td align="right"><strong>${escapeHtml(formatMoney(order.total, order.currency))}</strong></td></tr></table>`;
  }

  const mails = {
    /** Sends the order confirmation and records it on the order; false when the mail could not be sent (reconciliation tries again). */
    async sendConfirmation(order: OrderDto, userId: string): Promise<boolean> {
      const mailed = () => db.update(orders).set({ confirmationMailedAt: clock() }).where(eq(orders.id, order.id));
      const owner = await ownerEmail(userId);
      if (!owner) {
        await mailed();
        return true;
      }
      const link = new URL(`/order-details/${order.id}`, siteUrl).toString();
      const speed = order.deliverySpeed ? ` (${order.deliverySpeed.name}, ${order.deliverySpeed.days})` : '';
      const directions = order.deliveryOption === 'delivery' ? deliveryDirections(order.deliveryAddress) : null;
      const address = order.locker
        ? lockerDelivery(order.locker)
        : `${order.deliveryOption === 'collect' ? 'Pickup at' : `Delivery${speed} to`} ${order.deliveryAddress.name}, ${formatAddress(order.deliveryAddress)}${directions ? `. ${directions}` : ''}`;
      // Paid and in a registered market: the total says it includes VAT, and the tax invoice is linked.
      const invoice = (await documentsOf(db, order.id)).find((d) => d.kind === 'invoice');
      const vat = invoice ? ` (${VAT_INCLUDED} ${formatMoney(toMajor(invoice.vatMinor), order.currency)})` : '';
      const invoiceLine = invoice ? `${documentMailLine(invoice, siteUrl)}\n` : '';
      try {
        await mailer.send({
          to: owner.email,
          subject: `Your ${STORE_NAME} order ${order.trackingNumber}`,
          text: `Hello ${owner.firstName},\n\nThank you for your order ${order.trackingNumber}.\n\n${itemsText(order)}\n${discountText(order)}Shipping: ${order.deliveryFee === 0 ? 'Free' : formatMoney(order.deliveryFee, order.currency)}\nTotal: ${formatMoney(order.total, order.currency)}${vat}\n${dueText(order)}\n${address}${giftLines(order).length ? `\n\n${giftLines(order).join('\n')}` : ''}\n\nFollow your order: ${link}\n${invoiceLine}`,
          html: mailHtml(
            'Thank you for your order',
            `<p>Hello ${escapeHtml(owner.firstName)},</p><p>We have received your order <strong>${escapeHtml(order.trackingNumber)}</strong>.</p>${itemsHtml(order)}${dueText(order).trim().split('\n').filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p>${escapeHtml(address)}</p>${giftLines(order).map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(link)}">Follow your order</a></p>${invoice ? `<p>${escapeHtml(`Total ${VAT_INCLUDED} ${formatMoney(toMajor(invoice.vatMinor), order.currency)}.`)} <a href="${escapeHtml(new URL(`/api/v1/orders/${order.id}/documents/${invoice.number}.pdf`, siteUrl).toString())}">Tax invoice ${escapeHtml(invoice.number)} (PDF)</a></p>` : ''}`,
          ),
        });
      } catch (err) {
        log.error('order confirmation mail failed', { err, orderId: order.id });
        return false;
      }
      // Sent but not recorded (a crash right here) means one more mail later: at least once, never none.
      await mailed().catch((err) => log.error('could not record the confirmation mail', { err, orderId: order.id }));
      await notifications?.orderUpdate(order, userId, 'placed');
      await notifications?.giftRecipientUpdate(order, owner.firstName, 'placed');
      return true;
    },

    /**
     * Orders placed before `placedBefore` whose confirmation mail was never recorded as sent (the server
     * died or lost its database between placing the order and mailing it): mailed now. Returns how many.
     */
    async mailLostConfirmations({ placedBefore, limit = 100 }: { placedBefore: Date; limit?: number }): Promise<number> {
      const rows = await db
        .select({ id: orders.id, userId: orders.userId })
        .from(orders)
        .where(and(isNull(orders.confirmationMailedAt), lte(orders.createdAt, placedBefore)))
        .orderBy(asc(orders.createdAt))
        .limit(limit);
      let sent = 0;
      for (const row of rows) {
        const order = await load(row.id);
        if (order && (await mails.sendConfirmation(order, row.userId))) sent++;
      }
      return sent;
    },

    async sendStatusMail(order: OrderDto): Promise<void> {
      const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, order.id)).limit(1);
      const owner = row ? await ownerEmail(row.userId) : null;
      if (!owner) return;
      const link = new URL(`/order-details/${order.id}`, siteUrl).toString();
      try {
        await mailer.send({
          to: owner.email,
          subject: `${STATUS_SUBJECTS[order.status]} (${order.trackingNumber})`,
          text: `Hello ${owner.firstName},\n\n${STATUS_SENTENCES[order.status](order.trackingNumber)}\n\n${itemsText(order)}\nTotal: ${formatMoney(order.total, order.currency)}\n\nDetails: ${link}\n`,
          html: mailHtml(
            STATUS_SUBJECTS[order.status],
            `<p>Hello ${escapeHtml(owner.firstName)},</p><p>${STATUS_SENTENCES[order.status](`<strong>${escapeHtml(order.trackingNumber)}</strong>`)}</p>${itemsHtml(order)}<p><a href="${escapeHtml(link)}">See your order</a></p>`,
          ),
        });
      } catch (err) {
        log.error('order status mail failed', { err, orderId: order.id });
      }
      await notifications?.orderUpdate(order, row!.userId, order.status);
      await notifications?.giftRecipientUpdate(order, owner.firstName, order.status);
    },
  };
  return mails;
}
