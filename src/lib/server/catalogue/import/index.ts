import { changesNothing, IMPORT_MAX_CSV_BYTES, IMPORT_MAX_ROWS, IMPORT_MAX_ZIP_BYTES } from '@/lib/domain/catalogue-import';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import { csvRecords, CsvUnreadable } from '@/lib/server/infra/csv';
import type { Db } from '@/lib/server/infra/db/client';
import { runExclusively } from '@/lib/server/infra/jobs';
import type { Logger } from '@/lib/server/infra/log';
import type { MediaService } from '@/lib/server/infra/media';
import { openZip, ZipUnsafe } from '@/lib/server/infra/zip';
import { cacheTags, type PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { SearchService } from '../search';
import { applyChecked, ImportRejected } from './apply';
import { checkImport } from './check';
import { exportCatalogue } from './export';
import { picturesKnown, resolvePictures, type PictureDeps } from './pictures';
import { createImportRows, type ImportView } from './rows';

/**
 * The catalogue's spreadsheet import and export. An upload is stored and checked by the shared
 * worker (any server, one import at a time: an advisory lock across servers, a queue within one);
 * staff read the problems and the changes on the import's page, then apply it: the same check runs
 * again inside the apply's one transaction, so the file is written whole or not at all.
 */

export interface CatalogueImportDeps {
  db: Db;
  clock: () => Date;
  log: Logger;
  audit: AuditLog;
  media: MediaService;
  pageCache: PageCacheInvalidator;
  search: Pick<SearchService, 'refresh'>;
  site: string;
  useAdvisoryLock: boolean;
  fetchPicture?: PictureDeps['fetchPicture'];
}

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 3;
const LOCK_KEY = 745_201;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ImportDetails = ImportView & { nothingChanges: boolean };

export function createCatalogueImports(deps: CatalogueImportDeps) {
  const { db, clock, log } = deps;
  const rows = createImportRows(db);
  const pictureDeps: PictureDeps = { media: deps.media, site: deps.site, ...(deps.fetchPicture ? { fetchPicture: deps.fetchPicture } : {}) };
  // One import at a time in this process; across servers, the advisory lock.
  let running: Promise<number> = Promise.resolve(0);

  async function countRows(csv: Uint8Array): Promise<number> {
    let n = -1;
    try {
      for await (const _ of csvRecords(csv, { maxRecords: IMPORT_MAX_ROWS + 2 })) n++;
    } catch (err) {
      if (err instanceof CsvUnreadable) throw new Invalid(message('import-csv-unreadable'));
      throw err;
    }
    if (n < 0) throw new Invalid(message('import-csv-unreadable'));
    if (n > IMPORT_MAX_ROWS) throw new Invalid(fill('import-too-many-rows', IMPORT_MAX_ROWS));
    return n;
  }

  async function work(id: string, status: 'checking' | 'applying', attempts: number) {
    const row = await rows.file(id);
    if (!row) return;
    const csv = new Uint8Array(row.csv);
    const zip = row.images ? new Uint8Array(row.images) : null;
    try {
      if (status === 'checking') {
        const known = {};
        const outcome = await checkImport(db, csv, (products) => resolvePictures(pictureDeps, products, zip, known, (done, total) => rows.progress(id, done, total)));
        await rows.checked(id, { errors: outcome.problems, summary: outcome.summary, imageHashes: outcome.hashes, now: clock() });
        return;
      }
      const known = await rows.imageHashes(id);
      const actor: Actor = { id: row.actorId, email: row.actorEmail };
      const touched = await db.transaction(async (tx) => {
        const outcome = await checkImport(tx, csv, async (products) => picturesKnown(products, known));
        const ids = await applyChecked(tx, outcome, { actor, fileName: row.fileName, importId: id, now: clock(), audit: deps.audit, summary: outcome.summary });
        if (ids.length) await deps.search.refresh(ids, tx);
        await rows.applied(tx, id, outcome.summary, clock());
        return ids;
      });
      await deps.pageCache.invalidate([cacheTags.listing, ...touched.map((pid) => cacheTags.product(pid))]);
    } catch (err) {
      if (err instanceof ImportRejected) return rows.rejectedOnApply(id, err.problems, clock());
      log.error('catalogue import failed', { err, importId: id, status });
      await rows.failedAttempt(id, attempts, MAX_ATTEMPTS, clock(), { row: 0, column: '', message: message('import-failed') });
    }
  }

  async function runDueOnce(): Promise<number> {
    return runExclusively(
      db,
      { lockKey: LOCK_KEY, useAdvisoryLock: deps.useAdvisoryLock, name: 'catalogue import', log },
      async () => {
        let done = 0;
        for (let i = 0; i < 10; i++) {
          const claimed = await rows.claim(clock(), LEASE_MS);
          if (!claimed) break;
          await work(claimed.id, claimed.status as 'checking' | 'applying', claimed.attempts);
          done++;
        }
        return done;
      },
      () => 0,
    );
  }

  /** Works the imports due, one at a time (the shared worker calls it; an upload and an apply start it at once). */
  function runDue(): Promise<number> {
    running = running.then(runDueOnce, runDueOnce);
    return running;
  }
  const kick = () => void runDue().catch((err: unknown) => log.error('catalogue import failed', { err }));

  return {
    runDue,

    /** Stores an upload and has it checked; refuses at once a file that cannot be a catalogue (400). */
    async upload(actor: Actor, input: { fileName: string; csv: Uint8Array; images: Uint8Array | null }): Promise<{ id: string }> {
      if (input.csv.byteLength === 0) throw new Invalid(message('import-file-required'));
      if (input.csv.byteLength > IMPORT_MAX_CSV_BYTES) throw new Invalid(message('import-csv-too-large'));
      if (input.images && input.images.byteLength > IMPORT_MAX_ZIP_BYTES) throw new Invalid(message('import-zip-too-large'));
      const count = await countRows(input.csv);
      if (input.images) {
        try {
          (await openZip(input.images)).close();
        } catch (err) {
          if (err instanceof ZipUnsafe) throw new Invalid(fill('import-zip-unsafe', err.entry.slice(0, 200)));
          throw new Invalid(message('import-zip-unreadable'));
        }
      }
      const fileName = input.fileName.replace(/[^\p{L}\p{N} ._()-]/gu, '_').slice(0, 120) || 'import.csv';
      const id = await rows.create({ fileName, actor, csv: input.csv, images: input.images, rows: count, now: clock() });
      kick();
      return { id };
    },

    async get(id: string): Promise<ImportDetails> {
      const row = UUID.test(id) ? await rows.get(id) : null;
      if (!row) throw new NotFound(message('import-not-found'));
      return { ...row, nothingChanges: row.summary ? changesNothing(row.summary) : false };
    },

    recent: (limit?: number) => rows.recent(limit),

    /** Applies a checked file without problems (in the worker, the checks run again); 409 for any other. */
    async apply(id: string): Promise<ImportDetails> {
      const row = UUID.test(id) ? await rows.get(id) : null;
      if (!row) throw new NotFound(message('import-not-found'));
      if (!(await rows.requestApply(id, clock()))) throw new Conflict(message('import-not-ready'));
      kick();
      return this.get(id);
    },

    /** The catalogue as the import's CSV, streamed. */
    exportCsv: () => exportCatalogue(db, deps.site),
  };
}
export type CatalogueImports = ReturnType<typeof createCatalogueImports>;
