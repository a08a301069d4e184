/**
 * What every staff command shares: the server's configuration, its database, the cache bus (so
 * changes reach every app server's cached pages) and services; a refusal (AppError) is printed
 * and exits 1, anything else is a crash.
 */
import { AppError } from '@/lib/domain/errors';
import { createServices, openCacheBus, type Services } from '@/lib/server/services';
import { openStoreDatabase } from './store-database';

export async function runStaffCommand(work: (services: Services) => Promise<void>): Promise<void> {
  const { config, log, database } = await openStoreDatabase({ quiet: true });
  const pageCache = await openCacheBus(config, log);
  const services = createServices({ config, db: database.db, clock: () => new Date(), log, pageCache });
  try {
    await work(services);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  } finally {
    await pageCache.close();
    await database.close();
  }
}
