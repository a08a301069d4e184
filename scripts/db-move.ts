/**
 * `npm run db:move -- --to postgres://…`: copies the PGlite store in DATA_DIR into an empty
 * PostgreSQL database (every table, with its pictures and sequences, in batches), checks every
 * table's rows and checksum on both sides and prints what it moved. The PGlite store is only read.
 * Then start the servers with DATABASE_URL set to the same URL. Stop the PGlite store first.
 */
import { openDatabase } from '@/lib/server/infra/db/client';
import { DumpError, dumpStore, loadStore, tableCounts, type DumpLine } from '@/lib/server/operations/dump';
import { channel, prepareTarget, StoreNotEmpty } from '@/lib/server/operations/dump-files';
import { openStoreDatabase, scriptConfig } from './store-database';

const args = process.argv.slice(2);
const to = args.includes('--to') ? args[args.indexOf('--to') + 1] : undefined;
if (!to || !/^postgres(ql)?:\/\//.test(to)) {
  console.error('usage: db:move --to postgres://user@host:5432/database [--force]');
  process.exit(2);
}
if (scriptConfig().DATABASE_URL) {
  console.error('DATABASE_URL is set: db:move copies the PGlite store in DATA_DIR; unset DATABASE_URL to run it');
  process.exit(2);
}
const started = Date.now();
const { config, database: source } = await openStoreDatabase({ quiet: true });
const target = await openDatabase({ databaseUrl: to, dataDir: config.DATA_DIR, migrate: false });
try {
  const lines = channel<DumpLine>();
  const reading = dumpStore(source.db, 'pglite', (line) => lines.push(line)).then(
    (summary) => {
      lines.close();
      return summary;
    },
    (err: unknown) => {
      lines.close(err);
      throw err;
    },
  );
  const loading = loadStore(target.db, lines, {
    beforeLoad: (header) => prepareTarget(target, header.migrations, args.includes('--force')),
  }).catch((err: unknown) => {
    lines.close(err);
    throw err;
  });
  const [, loaded] = await Promise.all([reading, loading]);
  // Checked again from outside both transactions: what the servers will read is what PGlite holds.
  const [here, there] = await Promise.all([tableCounts(source.db), tableCounts(target.db)]);
  const differ = [...here].filter(([name, c]) => there.get(name)?.rows !== c.rows || there.get(name)?.checksum !== c.checksum);
  console.log(`moved ${loaded.rows} rows in ${loaded.tables.length} tables to ${new URL(to).host}${new URL(to).pathname} in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
  for (const t of loaded.tables) console.log(`  ${t.name.padEnd(28)} ${String(t.rows).padStart(9)} rows  checksum ${t.checksum}${there.get(t.name)?.checksum === t.checksum ? ' ok' : ' DIFFERS'}`);
  if (differ.length > 0) {
    console.error(`db:move: ${differ.length} table(s) differ after the move: ${differ.map(([n]) => n).join(', ')}`);
    process.exitCode = 1;
  } else {
    console.log('every table\'s rows and checksum match. Start the store with DATABASE_URL set to that URL.');
  }
} catch (err) {
  if (!(err instanceof StoreNotEmpty || err instanceof DumpError)) throw err;
  console.error(`db:move refused: ${err.message}`);
  process.exitCode = 1;
} finally {
  await target.close();
  await source.close();
}
