import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { HELP_STATUS_LABELS, HELP_TOPIC_LABELS, helpReference, type HelpStatus, type HelpTopic } from '@/lib/domain/after-sales';
import { Conflict, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pageOf } from '@/lib/server/infra/db/paging';
import type { PageAt } from '@/lib/domain/paging';
import { users } from '@/lib/server/accounts/tables';
import { helpMessages, helpRequests } from '@/lib/server/aftersales/tables';
import { orders } from '@/lib/server/orders/tables';
import type { Logger } from '@/lib/server/infra/log';
import { escapeHtml, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import { UUID } from '@/lib/domain/validation';

/** Open requests a shopper may have on one order at a time. */
export const MAX_OPEN_HELP_REQUESTS = 3;

export interface HelpThread {
  id: string;
  /** What the shopper quotes (helpReference), in the acknowledgement mail and on the order page. */
  reference: string;
  orderId: string;
  topic: HelpTopic;
  topicLabel: string;
  status: HelpStatus;
  statusLabel: string;
  createdAt: Date;
  updatedAt: Date;
  messages: { fromStaff: boolean; body: string; createdAt: Date }[];
}

/**
 * "Get help with this order": a shopper's request about one of their orders and its
 * thread, answered by staff from the back office (mailed to the shopper). The one writer of
 * help_requests and help_messages.
 */
export function createHelpService(deps: { db: Db; clock: () => Date; mailer: Mailer; audit: AuditLog; log: Logger; siteUrl: string }) {
  const { db, clock, audit } = deps;

  async function threads(where: ReturnType<typeof eq>): Promise<HelpThread[]> {
    const rows = await db.select().from(helpRequests).where(where).orderBy(asc(helpRequests.createdAt));
    if (rows.length === 0) return [];
    const msgs = await db
      .select()
      .from(helpMessages)
      .where(inArray(helpMessages.requestId, rows.map((r) => r.id)))
      .orderBy(asc(helpMessages.createdAt), asc(helpMessages.id));
    return rows.map((r) => ({
      id: r.id,
      reference: helpReference(r.id),
      orderId: r.orderId,
      topic: r.topic,
      topicLabel: HELP_TOPIC_LABELS[r.topic],
      status: r.status,
      statusLabel: HELP_STATUS_LABELS[r.status],
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      messages: msgs.filter((m) => m.requestId === r.id).map((m) => ({ fromStaff: m.fromStaff, body: m.body, createdAt: m.createdAt })),
    }));
  }

  async function ownOrder(userId: string, orderId: string) {
    if (!UUID.test(orderId)) throw new NotFound(message('order-not-found'));
    const [order] = await db
      .select({ userId: orders.userId, trackingNumber: orders.trackingNumber, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, orderId))
      .limit(1);
    if (!order || order.userId !== userId) throw new NotFound(message('order-not-found'));
    return order;
  }

  /** The shopper's receipt for a new request: its reference, what they asked, where the answer will be. A failed mail never fails the request. */
  async function acknowledge(order: { email: string; firstName: string; lastName: string; trackingNumber: string }, thread: HelpThread): Promise<void> {
    const name = `${order.firstName} ${order.lastName}`.trim();
    const subject = `We have your question about order ${order.trackingNumber} (${thread.reference})`;
    const intro = `Thank you for writing to us about order ${order.trackingNumber}. Your reference is ${thread.reference}: please quote it if you write to us again.`;
    const answer = 'We will answer by e-mail, and the conversation is on your order page:';
    const asked = thread.messages[0]?.body ?? '';
    const link = new URL(`/order-details/${thread.orderId}#help`, deps.siteUrl).toString();
    try {
      await deps.mailer.send({
        to: order.email,
        subject,
        text: `Hello ${name},\n\n${intro}\n\n${thread.topicLabel}:\n${asked}\n\n${answer} ${link}\n\n${STORE_NAME}\n`,
        html: mailHtml(
          subject,
          `<p>Hello ${escapeHtml(name)},</p><p>${escapeHtml(intro)}</p><p><strong>${escapeHtml(thread.topicLabel)}</strong><br />${escapeHtml(asked).replace(/\n/g, '<br />')}</p><p>${escapeHtml(answer)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        ),
      });
    } catch (err) {
      deps.log.error('help acknowledgement mail failed', { err, requestId: thread.id });
    }
  }

  return {
    /** A new request about the shopper's own order (a few open at a time). */
    async ask(userId: string, orderId: string, input: { topic: HelpTopic; message: string }): Promise<HelpThread> {
      const order = await ownOrder(userId, orderId);
      const id = await db.transaction(async (tx) => {
        // The order's row lock keeps two requests sent at once within the limit.
        await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
        const [open] = await tx.select({ n: count() }).from(helpRequests).where(and(eq(helpRequests.orderId, orderId), inArray(helpRequests.status, ['open', 'answered'])));
        if ((open?.n ?? 0) >= MAX_OPEN_HELP_REQUESTS) throw new Conflict(message('help-too-many'));
        const [row] = await tx.insert(helpRequests).values({ orderId, userId, topic: input.topic, createdAt: clock(), updatedAt: clock() }).returning({ id: helpRequests.id });
        await tx.insert(helpMessages).values({ requestId: row!.id, fromStaff: false, authorId: userId, body: input.message, createdAt: clock() });
        return row!.id;
      });
      const thread = (await threads(eq(helpRequests.id, id)))[0]!;
      await acknowledge(order, thread);
      return thread;
    },

    /** The shopper's requests about one of their orders, with their messages. */
    async forOrder(userId: string, orderId: string): Promise<HelpThread[]> {
      await ownOrder(userId, orderId);
      return threads(eq(helpRequests.orderId, orderId));
    },

    /** The back office's "Help requests": waiting ones first by default, 25 a page. */
    async adminList(opts: { status?: HelpStatus | undefined } & PageAt = {}) {
      const where = opts.status ? eq(helpRequests.status, opts.status) : undefined;
      const list = await pageOf(
        (w) =>
        db
          .select({
            id: helpRequests.id,
            orderId: helpRequests.orderId,
            topic: helpRequests.topic,
            status: helpRequests.status,
            updatedAt: helpRequests.updatedAt,
            trackingNumber: orders.trackingNumber,
            firstName: users.firstName,
            lastName: users.lastName,
            email: users.email,
          })
          .from(helpRequests)
          .innerJoin(orders, eq(orders.id, helpRequests.orderId))
          .innerJoin(users, eq(users.id, helpRequests.userId))
          .where(and(where, w.where))
          .orderBy(...w.orderBy)
          .limit(w.limit)
          .offset(w.offset),
        { table: helpRequests, id: helpRequests.id, idKind: 'uuid', idOf: (r) => r.id, keys: [{ column: helpRequests.updatedAt, desc: true }, { column: helpRequests.id, desc: true }] },
        async () => (await db.select({ n: count() }).from(helpRequests).where(where))[0]?.n ?? 0,
        opts,
        25,
      );
      return {
        ...list,
        rows: list.rows.map((r) => ({ ...r, customer: `${r.firstName} ${r.lastName}`, topicLabel: HELP_TOPIC_LABELS[r.topic], statusLabel: HELP_STATUS_LABELS[r.status] })),
      };
    },

    async adminDetail(id: string) {
      if (!UUID.test(id)) throw new NotFound(message('help-not-found'));
      const [thread] = await threads(eq(helpRequests.id, id));
      if (!thread) throw new NotFound(message('help-not-found'));
      const [who] = await db
        .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, trackingNumber: orders.trackingNumber })
        .from(helpRequests)
        .innerJoin(users, eq(users.id, helpRequests.userId))
        .innerJoin(orders, eq(orders.id, helpRequests.orderId))
        .where(eq(helpRequests.id, id));
      return { thread, customer: { id: who!.userId, name: `${who!.firstName} ${who!.lastName}`, email: who!.email }, trackingNumber: who!.trackingNumber };
    },

    /** Staff answer: the message, the request answered, the audit row; then the shopper is mailed. */
    async answer(actor: Actor, id: string, body: string): Promise<HelpThread> {
      const detail = await this.adminDetail(id);
      await db.transaction(async (tx) => {
        await tx.insert(helpMessages).values({ requestId: id, fromStaff: true, authorId: actor.id, body, createdAt: clock() });
        await tx.update(helpRequests).set({ status: 'answered', updatedAt: clock() }).where(eq(helpRequests.id, id));
        await audit.record(actor, { action: 'help.answer', entity: 'help_request', entityId: id, details: { trackingNumber: detail.trackingNumber } }, tx);
      });
      const link = new URL(`/order-details/${detail.thread.orderId}#help`, deps.siteUrl).toString();
      try {
        await deps.mailer.send({
          to: detail.customer.email,
          subject: `Your question about order ${detail.trackingNumber}`,
          text: `Hello ${detail.customer.name},\n\n${body}\n\nSee the whole conversation: ${link}\n\n${STORE_NAME}\n`,
          html: mailHtml(`Your question about order ${detail.trackingNumber}`, `<p>Hello ${escapeHtml(detail.customer.name)},</p><p>${escapeHtml(body).replace(/\n/g, '<br />')}</p><p><a href="${escapeHtml(link)}">See the whole conversation</a></p>`),
        });
      } catch (err) {
        deps.log.error('help answer mail failed', { err, requestId: id });
      }
      return (await threads(eq(helpRequests.id, id)))[0]!;
    },

    async close(actor: Actor, id: string): Promise<void> {
      await this.adminDetail(id);
      await db.transaction(async (tx) => {
        await tx.update(helpRequests).set({ status: 'closed', updatedAt: clock() }).where(eq(helpRequests.id, id));
        await audit.record(actor, { action: 'help.close', entity: 'help_request', entityId: id }, tx);
      });
    },
  };
}
export type HelpService = ReturnType<typeof createHelpService>;

/** An account's deletion deletes its help requests and their threads (what the shopper wrote, and the answers naming them). */
export async function eraseHelpOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(helpRequests).where(eq(helpRequests.userId, userId));
}
