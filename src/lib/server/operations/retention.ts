import { purgeCartsUntouchedSince } from '@/lib/server/cart/cart';
import { purgeSearchLogBefore } from '@/lib/server/catalogue/search';
import type { CodeService } from '@/lib/server/accounts/codes';
import type { SessionService } from '@/lib/server/accounts/sessions';
import type { Db } from '@/lib/server/infra/db/client';
import { purgeTextOutboxBefore } from '@/lib/server/notifications/outbox';
import { runExclusively, scheduleJob, type ScheduledJob } from '../infra/jobs';
import type { Logger } from '../infra/log';
import { purgeMailOutboxBefore } from '../infra/mail';

/** The advisory lock that lets one app server at a time purge ("MLRT"). */
export const RETENTION_LOCK_KEY = 0x4d4c5254;
const DAY_MS = 86_400_000;

export interface RetentionPeriods {
  outboxDays: number;
  cartDays: number;
  searchDays: number;
}

export interface RetentionReport {
  /** false when another app server holds the lock (it is doing the work). */
  ran: boolean;
  mails: number;
  texts: number;
  carts: number;
  searches: number;
  sessions: number;
  codes: number;
}

/**
 * What the store no longer needs, deleted once a day by each table's owner: outbox mails and
 * texts, untouched carts and the search log past their periods (settings), expired sessions and
 * codes. Orders, payments, their money and the stock and credit ledgers are the shop's books and
 * are never purged here: the law keeps them for years (BOOKS_KEPT_YEARS).
 */
export function createRetention(deps: {
  db: Db;
  clock: () => Date;
  log: Logger;
  periods: RetentionPeriods;
  useAdvisoryLock: boolean;
  sessions: Pick<SessionService, 'purgeExpired'>;
  codes: Pick<CodeService, 'purgeExpired'>;
}) {
  const { db, clock, log, periods } = deps;
  const before = (days: number) => new Date(clock().getTime() - days * DAY_MS);

  async function purge(): Promise<RetentionReport> {
    const report: RetentionReport = {
      ran: true,
      mails: await purgeMailOutboxBefore(db, before(periods.outboxDays)),
      texts: await purgeTextOutboxBefore(db, before(periods.outboxDays)),
      carts: await purgeCartsUntouchedSince(db, before(periods.cartDays)),
      searches: await purgeSearchLogBefore(db, before(periods.searchDays)),
      sessions: await deps.sessions.purgeExpired(),
      codes: await deps.codes.purgeExpired(),
    };
    log.info('retention done', { ...report });
    return report;
  }

  const lock = { lockKey: RETENTION_LOCK_KEY, useAdvisoryLock: deps.useAdvisoryLock, name: 'retention', log };
  const skipped = (): RetentionReport => ({ ran: false, mails: 0, texts: 0, carts: 0, searches: 0, sessions: 0, codes: 0 });
  return { purge: (): Promise<RetentionReport> => runExclusively(db, lock, purge, skipped) };
}
export type Retention = ReturnType<typeof createRetention>;

/** Starts the daily retention job for a booted store (called once from boot()). */
export function startRetention(services: {
  db: Db;
  clock: () => Date;
  log: Logger;
  config: { DATABASE_URL?: string | undefined; RETENTION_OUTBOX_DAYS: number; RETENTION_CART_DAYS: number; RETENTION_SEARCH_DAYS: number };
  sessions: SessionService;
  codes: CodeService;
}): ScheduledJob {
  const { config } = services;
  const retention = createRetention({
    ...services,
    periods: { outboxDays: config.RETENTION_OUTBOX_DAYS, cartDays: config.RETENTION_CART_DAYS, searchDays: config.RETENTION_SEARCH_DAYS },
    useAdvisoryLock: Boolean(config.DATABASE_URL),
  });
  return scheduleJob(() => retention.purge(), { log: services.log, everyMinutes: 24 * 60, name: 'retention' });
}
