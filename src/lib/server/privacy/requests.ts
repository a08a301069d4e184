import { and, asc, desc, eq } from 'drizzle-orm';
import { Conflict, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { DEFAULT_MARKET, marketOfCountry, type MarketCode } from '@/lib/domain/markets';
import type { DataRequestKind } from '@/lib/domain/privacy';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import { users } from '@/lib/server/accounts/tables';
import { pageTag } from '@/lib/server/content/pages';
import type { MarketSettings } from '@/lib/server/markets/settings';
import { dataRequests } from '@/lib/server/privacy/tables';
import type { DataExport } from './export';
import type { Erasure } from './erasure';

export interface DataRequestRow {
  id: string;
  userId: string;
  kind: DataRequestKind;
  channel: 'mail' | 'phone';
  market: MarketCode;
  note: string;
  receivedAt: Date;
  dueAt: Date;
  status: 'open' | 'done';
  doneAt: Date | null;
  /** The shopper as the account names them now ("Deleted account" once erased). */
  customerName: string;
  customerEmail: string;
  erased: boolean;
}

const DAY_MS = 86_400_000;

/**
 * "Data requests": a shopper's request for a copy of their data or for their account's deletion
 * that came by mail or phone. Staff record it (its deadline is the market's privacy_request_days
 * from the day it came), then answer it with an export or an erasure; each step is in the audit
 * log. The one writer of data_requests. It also keeps those days per market: the Privacy page
 * says them, so a change drops its cached copies.
 */
export function createDataRequests(deps: {
  db: Db;
  clock: () => Date;
  audit: AuditLog;
  dataExport: DataExport;
  erasure: Erasure;
  settings: Pick<MarketSettings, 'privacyRequestDays' | 'saveMarketSetting'>;
  pageCache: PageCacheInvalidator;
}) {
  const { db, clock, audit } = deps;
  const columns = {
    id: dataRequests.id,
    userId: dataRequests.userId,
    kind: dataRequests.kind,
    channel: dataRequests.channel,
    market: dataRequests.market,
    note: dataRequests.note,
    receivedAt: dataRequests.receivedAt,
    dueAt: dataRequests.dueAt,
    status: dataRequests.status,
    doneAt: dataRequests.doneAt,
    firstName: users.firstName,
    lastName: users.lastName,
    customerEmail: users.email,
    erasedAt: users.erasedAt,
  };
  type Joined = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] } & { firstName: string; lastName: string };
  const shown = ({ firstName, lastName, erasedAt, ...r }: Joined): DataRequestRow => ({ ...r, customerName: `${firstName} ${lastName}`, erased: erasedAt !== null });
  const joined = () => db.select(columns).from(dataRequests).innerJoin(users, eq(users.id, dataRequests.userId));

  async function get(id: string): Promise<DataRequestRow> {
    const [row] = /^[0-9a-f-]{36}$/i.test(id) ? await joined().where(eq(dataRequests.id, id)).limit(1) : [];
    if (!row) throw new NotFound(message('data-request-not-found'));
    return shown(row as Joined);
  }

  async function close(actor: Actor, id: string, action: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [done] = await tx
        .update(dataRequests)
        .set({ status: 'done', doneAt: clock(), doneBy: actor.id })
        .where(and(eq(dataRequests.id, id), eq(dataRequests.status, 'open')))
        .returning({ id: dataRequests.id });
      if (!done) throw new Conflict(message('data-request-done'));
      await audit.record(actor, { action, entity: 'data_request', entityId: id }, tx);
    });
  }

  return {
    get,

    /** Open requests by deadline, then the latest answered ones. */
    async list(): Promise<{ open: DataRequestRow[]; done: DataRequestRow[] }> {
      const open = await joined().where(eq(dataRequests.status, 'open')).orderBy(asc(dataRequests.dueAt)).limit(500);
      const done = await joined().where(eq(dataRequests.status, 'done')).orderBy(desc(dataRequests.doneAt)).limit(50);
      return { open: open.map((r) => shown(r as Joined)), done: done.map((r) => shown(r as Joined)) };
    },

    /** Days the store has to answer a request made by mail or phone in `market`. */
    answerDays: (market: MarketCode) => deps.settings.privacyRequestDays(market),

    /** Staff set those days for a market (audited); the Privacy page, which says them, is rendered anew. */
    async setAnswerDays(actor: Actor, market: MarketCode, days: number): Promise<void> {
      await deps.settings.saveMarketSetting(actor, market, 'privacyRequestDays', days, 'market.privacy-request-days');
      await deps.pageCache.invalidate([pageTag('privacy')]);
    },

    /** Records a request for the account with this e-mail; its deadline follows the shopper's market. */
    async record(actor: Actor, input: { email: string; kind: DataRequestKind; channel: 'mail' | 'phone'; note: string }): Promise<DataRequestRow> {
      const [user] = await db.select({ id: users.id, country: users.country, erasedAt: users.erasedAt }).from(users).where(eq(users.email, input.email)).limit(1);
      if (!user || user.erasedAt) throw new NotFound(message('data-request-no-account'));
      const market = marketOfCountry(user.country) ?? DEFAULT_MARKET;
      const now = clock();
      const dueAt = new Date(now.getTime() + (await deps.settings.privacyRequestDays(market)) * DAY_MS);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(dataRequests)
          .values({ userId: user.id, kind: input.kind, channel: input.channel, market, note: input.note, receivedAt: now, dueAt, recordedBy: actor.id })
          .returning({ id: dataRequests.id });
        await audit.record(actor, { action: 'data-request.record', entity: 'data_request', entityId: row!.id, details: { kind: input.kind, channel: input.channel, dueAt: dueAt.toISOString() } }, tx);
        return row!.id;
      });
      return get(id);
    },

    /** The shopper's data for an export request (recorded in the audit log; the request stays open until marked answered). */
    async exportFor(actor: Actor, id: string) {
      const request = await get(id);
      if (request.erased) throw new Conflict(message('account-already-deleted'));
      const data = await deps.dataExport.of(request.userId);
      await audit.record(actor, { action: 'data-request.export', entity: 'data_request', entityId: id });
      return data;
    },

    /** Marks an export request answered (the copy was sent to the shopper). */
    async markAnswered(actor: Actor, id: string): Promise<void> {
      await get(id);
      await close(actor, id, 'data-request.answered');
    },

    /** Erases the shopper's account for an erasure request and closes it; refused as the shopper would be (an order on its way…). */
    async eraseFor(actor: Actor, id: string, giveUpCredit: boolean): Promise<void> {
      const request = await get(id);
      if (request.status === 'done') throw new Conflict(message('data-request-done'));
      await deps.erasure.erase(request.userId, { giveUpCredit });
      await close(actor, id, 'data-request.erase');
    },
  };
}
export type DataRequests = ReturnType<typeof createDataRequests>;
