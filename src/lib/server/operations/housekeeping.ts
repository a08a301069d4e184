import { createCodeService, type CodeService } from '@/lib/server/accounts/codes';
import type { Db } from '@/lib/server/infra/db/client';
import { runExclusively, scheduleJob, type ScheduledJob } from '../infra/jobs';
import type { Logger } from '../infra/log';
import { createRateLimiter, type RateLimiter } from '../infra/rate-limit';
import { createSessionService, type SessionService } from '@/lib/server/accounts/sessions';

/** The advisory lock that lets one app server at a time do housekeeping ("MLHK"; the seed uses 20261122). */
export const HOUSEKEEPING_LOCK_KEY = 0x4d4c484b;
export const HOUSEKEEPING_EVERY_MINUTES = 30;

export interface PurgeReport {
  /** false when another app server holds the lock (it is doing the work). */
  ran: boolean;
  sessions: number;
  codes: number;
  rateLimits: number;
}

interface Deps {
  db: Db;
  clock: () => Date;
  log: Logger;
  /** PostgreSQL server: serialise runs across app servers with an advisory lock. PGlite is one process. */
  useAdvisoryLock: boolean;
  /** The owners of the tables; built from db and clock when not given. */
  sessions?: Pick<SessionService, 'purgeExpired'>;
  codes?: Pick<CodeService, 'purgeExpired'>;
  limiter?: Pick<RateLimiter, 'purgeExpired'>;
}

/**
 * Purges what has run out: expired sessions, used and expired one-time codes, rate-limit
 * counters whose window has ended. Each table's owner module does its own delete; this
 * service only calls them, one app server at a time.
 */
export function createHousekeeping(deps: Deps) {
  const { db, clock, log } = deps;
  const limiter = deps.limiter ?? createRateLimiter({ db, clock });
  const owners = {
    sessions: deps.sessions ?? createSessionService({ db, clock }),
    codes: deps.codes ?? createCodeService({ db, clock, limiter: createRateLimiter({ db, clock }) }),
    limiter,
  };

  async function purgeAll(): Promise<PurgeReport> {
    const report: PurgeReport = {
      ran: true,
      sessions: await owners.sessions.purgeExpired(),
      codes: await owners.codes.purgeExpired(),
      rateLimits: await owners.limiter.purgeExpired(),
    };
    log.info('housekeeping done', { ...report });
    return report;
  }

  const lock = { lockKey: HOUSEKEEPING_LOCK_KEY, useAdvisoryLock: deps.useAdvisoryLock, name: 'housekeeping', log };
  const skipped = (): PurgeReport => ({ ran: false, sessions: 0, codes: 0, rateLimits: 0 });
  return {
    purgeExpired: (): Promise<PurgeReport> => runExclusively(db, lock, purgeAll, skipped),
  };
}
export type Housekeeping = ReturnType<typeof createHousekeeping>;

/** Runs housekeeping now and then every `everyMinutes` (see scheduleJob). */
export function scheduleHousekeeping(
  housekeeping: Pick<Housekeeping, 'purgeExpired'>,
  { log, everyMinutes = HOUSEKEEPING_EVERY_MINUTES }: { log: Logger; everyMinutes?: number },
): ScheduledJob {
  return scheduleJob(() => housekeeping.purgeExpired(), { log, everyMinutes, name: 'housekeeping' });
}

/** Starts scheduled housekeeping for a booted store (called once from boot()). */
export function startHousekeeping(services: {
  db: Db;
  clock: () => Date;
  log: Logger;
  config: { DATABASE_URL?: string | undefined };
  sessions: SessionService;
  codes: CodeService;
  limiter: RateLimiter;
}) {
  const { db, clock, log, sessions, codes, limiter } = services;
  const housekeeping = createHousekeeping({ db, clock, log, sessions, codes, limiter, useAdvisoryLock: Boolean(services.config.DATABASE_URL) });
  return scheduleHousekeeping(housekeeping, { log });
}
