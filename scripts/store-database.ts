/**
 * How every script opens the store the server uses: its configuration (a bad variable is printed
 * by name and exits 1, no stack trace), a logger, and the database (DATABASE_URL, or PGlite in
 * DATA_DIR), migrated unless asked not to be.
 */
import { ConfigError, getConfig, type Config } from '@/lib/server/infra/config';
import { openDatabase, type Database } from '@/lib/server/infra/db/client';
import { createLogger, type Logger } from '@/lib/server/infra/log';

export function scriptConfig(): Config {
  try {
    return getConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
}

export async function openStoreDatabase(
  opts: { migrate?: boolean; quiet?: boolean } = {},
): Promise<{ config: Config; log: Logger; database: Database }> {
  const config = scriptConfig();
  const log = createLogger(opts.quiet && config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, migrate: opts.migrate ?? true });
  return { config, log, database };
}
