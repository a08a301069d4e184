/**
 * The content pages' command:
 *   npm run content -- export     writes each page's published version to src/content/pages/<slug>.md
 * so the files in git follow what editors published (the files are each page's first version in a
 * new store's database).
 */
import { writePageFiles } from '@/lib/server/content/files';
import { getConfig } from '@/lib/server/infra/config';
import { openDatabase } from '@/lib/server/infra/db/client';
import { createLogger } from '@/lib/server/infra/log';
import { createServices } from '@/lib/server/services';

const [command, ...rest] = process.argv.slice(2);
const dirAt = rest.indexOf('--dir');
if (command !== 'export' || (dirAt >= 0 && !rest[dirAt + 1])) {
  console.error('usage: npm run content -- export [--dir <folder>]');
  process.exit(2);
}

const config = getConfig();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const services = createServices({ config, db: database.db, clock: () => new Date(), log });
  const written = await writePageFiles(await services.contentPages.publishedVersions(), dirAt >= 0 ? rest[dirAt + 1] : undefined);
  for (const file of written) console.log(`wrote ${file}`);
} finally {
  await database.close();
}
