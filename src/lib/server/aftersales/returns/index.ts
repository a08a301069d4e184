import type { AuditLog } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import type { Logger } from '@/lib/server/infra/log';
import type { Mailer } from '@/lib/server/infra/mail';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { PaymentService } from '@/lib/server/payments/service';
import type { StoreCreditService } from '../store-credit';
import { createGiftReturnRequests } from './gift';
import { createReturnMails } from './mail';
import { createReturnMoney } from './money';
import { createReturnReading } from './reading';
import { createReturnRequests } from './shopper';
import { createReturnActions, type ReturnShipments } from './staff';

export type { ExchangeChoice } from './exchange';
export type { GiftReturnOptions } from './gift';
export { exchangeDifferences } from './exchange';
export type { AdminReturnRow } from './reading';
export type { ReturnOptions } from './shopper';

/**
 * Returns and exchanges (ADR 0014, split by job in ADR 0040). `rows.ts` is the one writer of
 * `returns` and `return_items`. A request is written under the order's row lock, so requests for one
 * line never return more units than were bought; an exchange takes its new unit at once through the
 * stock ledger (shopper.ts, exchange.ts). Staff move a return (approve, reject, receive, refund,
 * credit, ship) under its row lock (staff.ts); money goes back once: what goes back to a payment is
 * owed in the action's transaction (owed_refunds) and paid by the refund worker, and its store credit
 * row is unique per return (money.ts). Lists and pages read through reading.ts; mails go from mail.ts.
 */
export function createReturnService(deps: {
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  audit: AuditLog;
  payments: Pick<PaymentService, 'initiateDifference'>;
  /** Pays the refunds owed now (the refund worker's run), after a rejection that owes one commits. */
  payOwedRefunds?: () => Promise<unknown>;
  storeCredit: StoreCreditService;
  pageCache?: PageCacheInvalidator;
  siteUrl: string;
  /** Delivery by courier: a return's collection and an exchange's replacement (staff.ts, ReturnShipments). */
  shipments?: ReturnShipments;
}) {
  const { db, clock } = deps;
  const mails = createReturnMails({ db, log: deps.log, mailer: deps.mailer, siteUrl: deps.siteUrl });
  const money = createReturnMoney({ clock, storeCredit: deps.storeCredit });
  const requests = createReturnRequests({ db, clock, mails, payments: deps.payments, pageCache: deps.pageCache });
  const actions = createReturnActions({ db, clock, log: deps.log, audit: deps.audit, money, mails, payOwedRefunds: deps.payOwedRefunds, pageCache: deps.pageCache, shipments: deps.shipments });
  const gifts = createGiftReturnRequests({ db, clock, mails, pageCache: deps.pageCache });
  return { ...requests, ...gifts, ...createReturnReading({ db }), ...actions };
}
export type ReturnService = ReturnType<typeof createReturnService>;
