/**
 * What every staff command shares: the server's configuration, its database, the cache bus (so
 * changes reach every app server's cached pages) and services; a refusal (AppError) is printed
 * and exits 1, anything else is a crash.
 */
import { AppError } from '@/lib/domain/errors';
import { ConfigError, getConfig } from '@/lib/server/infra/config';
import { openDatabase } from '@/lib/server/infra/db/client';
import { createLogger } from '@/lib/server/infra/log';
import { createServices, openCacheBus, type Services } from '@/lib/server/services';

export async function runStaffCommand(work: (services: Services) => Promise<void>): Promise<void> {
  let config: ReturnType<typeof getConfig>;
  try {
    config = getConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
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
