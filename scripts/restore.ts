/**
 * `npm run restore -- FILE [--force]`: loads a backup into the store the server uses (DATABASE_URL,
 * or PGlite in DATA_DIR), which must be empty unless --force (its rows are then replaced), checks
 * every table's rows and checksum against the backup's, and migrates it to this version. The
 * store's own dump loads into PGlite or PostgreSQL; a pg_dump file into PostgreSQL only.
 * Stop the store's servers first.
 */
import { existsSync } from 'node:fs';
import { DumpError } from '@/lib/server/operations/dump';
import { restoreBackup, StoreNotEmpty } from '@/lib/server/operations/dump-files';
import { openStoreDatabase } from './store-database';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file || !existsSync(file)) {
  console.error(file ? `no such file: ${file}` : 'usage: restore FILE [--force]');
  process.exit(2);
}
const { config, database } = await openStoreDatabase({ migrate: false, quiet: true });
try {
  const result = await restoreBackup(database, {
    file,
    databaseUrl: config.DATABASE_URL,
    force: args.includes('--force'),
    onTable: (name, rows) => console.log(`  ${name}: ${rows} rows, checksum matches`),
  });
  const rows = result.load ? `, ${result.load.rows} rows in ${result.load.tables.length} tables` : '';
  console.log(`restored ${file} into ${database.driver === 'pg' ? 'PostgreSQL' : `PGlite (${config.DATA_DIR})`} (${result.format}${rows}) in ${(result.ms / 1000).toFixed(1)} s`);
} catch (err) {
  if (!(err instanceof StoreNotEmpty || err instanceof DumpError)) throw err;
  console.error(`restore refused: ${err.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
