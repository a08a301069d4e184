import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import type { MediaService } from '@/lib/server/infra/media';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { SearchService } from '../search';

export interface CatalogueAdminDeps {
  db: Db;
  clock?: () => Date;
  pageCache: PageCacheInvalidator;
  audit?: AuditLog;
  media?: MediaService;
  search?: Pick<SearchService, 'refresh'>;
}

/** What every job of the catalogue's back office works with: the deps, a clock, and `record` (audited when there is an audit log). */
export interface AdminContext extends Omit<CatalogueAdminDeps, 'clock' | 'audit'> {
  clock: () => Date;
  record(actor: Actor, entry: Parameters<AuditLog['record']>[1], tx?: Parameters<AuditLog['record']>[2]): Promise<void>;
}

export function adminContext(deps: CatalogueAdminDeps): AdminContext {
  const { audit, ...rest } = deps;
  return {
    ...rest,
    clock: deps.clock ?? (() => new Date()),
    record: async (actor, entry, tx) => {
      if (audit) await audit.record(actor, entry, tx);
    },
  };
}

/** Who changed the catalogue when no staff member is named: the staff command (`npm run catalogue`). */
export const STAFF_COMMAND: Actor = { id: null, email: 'staff command' };
