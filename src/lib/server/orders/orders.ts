import type { Db } from '@/lib/server/infra/db/client';
import type { AuditLog } from '@/lib/server/backoffice/audit';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { Logger } from '@/lib/server/infra/log';
import type { Mailer } from '@/lib/server/infra/mail';
import type { ShopperNotifications } from '@/lib/server/notifications/notifications';
import { createLineRefunds } from './line-refunds';
import { createOrderMails } from './order-mails';
import { createOrderPlacing } from './order-placing';
import { createOrderReading } from './order-reading';
import { createOrderStatus, type OrderStatusDeps } from './order-status';
import { createStaffOrders } from './staff-orders';

/**
 * The order service as the rest of the store calls it: one object made of the order modules, each
 * readable from its name:
 * - order-placing.ts: a paid checkout's order (createPaid);
 * - order-status.ts: status changes under the order's row lock (setStatus, moveLocked, cancelByShopper, deliverByCourier);
 * - order-reading.ts: an order as its shopper reads it, and the shopper's lists;
 * - staff-orders.ts: the back office list, its CSV export and an order's details;
 * - line-refunds.ts: the units a line refund takes and gives back, and what they were paid;
 * - order-mails.ts: the confirmation and status mails.
 * Nothing is decided here: it only hands each module the others it needs.
 */
export interface OrderServiceDeps {
  db: Db;
  mailer: Mailer;
  log: Logger;
  siteUrl: string;
  audit?: AuditLog;
  pageCache?: PageCacheInvalidator;
  clock?: () => Date;
  /** Texts to shoppers who opted in (src/lib/server/notifications); never throws. */
  notifications?: ShopperNotifications;
  /** Pays the refunds owed now (the refund worker's run), after a cancel commits; the worker pays them later otherwise. */
  payOwedRefunds?: OrderStatusDeps['payOwedRefunds'];
  /** Gives a cancelled order's store credit back (the store credit module), in the cancelling transaction. */
  storeCredit?: OrderStatusDeps['storeCredit'];
  /** Gives a cancelled order's discount code back (the promotions module), in the cancelling transaction. */
  promotions?: OrderStatusDeps['promotions'];
  /** Delivery by courier (delivery/shipments.ts): the shipment asked for when an order is ready to ship, booked after the commit. */
  shipments?: OrderStatusDeps['shipments'];
}

export function createOrderService({ db, mailer, log, siteUrl, audit, pageCache, clock = () => new Date(), notifications, payOwedRefunds, storeCredit, promotions, shipments }: OrderServiceDeps) {
  const { withItems, ...reading } = createOrderReading({ db, clock });
  const mails = createOrderMails({ db, mailer, log, siteUrl, clock, notifications, load: reading.load });
  const status = createOrderStatus({ db, log, clock, audit, pageCache, withItems, sendStatusMail: mails.sendStatusMail, payOwedRefunds, storeCredit, promotions, shipments });
  return {
    ...createOrderPlacing({ clock }),
    ...status,
    ...reading,
    ...createStaffOrders({ db, load: reading.load }),
    ...createLineRefunds({ db }),
    ...mails,
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
