/**
 * `npm run backup [-- --dir DIR] [--format logical|pg_dump]`: one consistent, compressed,
 * timestamped backup of the whole store (the database the server uses: DATABASE_URL, or PGlite in
 * DATA_DIR; uploaded pictures live in its media table, so they are in it too). PostgreSQL goes
 * through pg_dump's custom format when this machine has a pg_dump as new as the server; PGlite (or
 * `--format logical`) through the store's own dump, which `npm run restore` loads into either.
 * Stop a PGlite store's server first: its files belong to one process (or let the server take
 * scheduled backups: BACKUP_EVERY_HOURS).
 */
import { mkdirSync } from 'node:fs';
import { writeBackup, type BackupFormat } from '@/lib/server/operations/dump-files';
import { openStoreDatabase } from './store-database';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const format = option('--format') as BackupFormat | undefined;
if (format && format !== 'logical' && format !== 'pg_dump') {
  console.error('usage: backup [--dir DIR] [--format logical|pg_dump]');
  process.exit(2);
}
const { config, database } = await openStoreDatabase({ quiet: true });
const dir = option('--dir') ?? config.BACKUP_DIR;
mkdirSync(dir, { recursive: true });
try {
  const result = await writeBackup(database, { dir, databaseUrl: config.DATABASE_URL, ...(format ? { format } : {}), onWarn: (m) => console.warn(m) });
  const rows = result.summary ? `, ${result.summary.rows} rows in ${result.summary.tables.length} tables` : '';
  console.log(`backup written: ${result.file} (${result.format}, ${(result.bytes / 1024 / 1024).toFixed(2)} MB${rows}) in ${(result.ms / 1000).toFixed(1)} s`);
} finally {
  await database.close();
}
