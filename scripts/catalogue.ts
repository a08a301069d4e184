/**
 * Staff command for the catalogue, e.g.
 *   npm run catalogue -- set-price 12 250000.00     (a product's price, in major units of its currency)
 *   npm run catalogue -- set-stock 345 8            (a variant's stock)
 * Cached pages showing the change are invalidated on every app server (PostgreSQL NOTIFY).
 */
import { AppError } from '../src/lib/domain/errors';
import { toMinor } from '../src/lib/domain/money';
import { getConfig } from '../src/lib/server/config';
import { openDatabase } from '../src/lib/server/db/client';
import { createLogger } from '../src/lib/server/log';
import { createServices, openCacheBus } from '../src/lib/server/services';

const usage = 'usage: npm run catalogue -- set-price <productId> <price> | set-stock <variantId> <stock>';
const [command, idText, valueText] = process.argv.slice(2);
const id = Number(idText);
const value = Number(valueText);
if (!['set-price', 'set-stock'].includes(command ?? '') || !Number.isInteger(id) || !Number.isFinite(value)) {
  console.error(usage);
  process.exit(2);
}

const config = getConfig();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const pageCache = await openCacheBus(config, log);
const services = createServices({ config, db: database.db, clock: () => new Date(), log, pageCache });
try {
  if (command === 'set-price') {
    const row = await services.catalogueAdmin.setPrice(id, toMinor(value));
    console.log(`product ${row.productId}: price ${value} ${row.currency}`);
  } else {
    const row = await services.catalogueAdmin.setStock(id, value);
    console.log(`variant ${row.variantId} (product ${row.productId}): stock ${row.stock}`);
  }
} catch (err) {
  if (err instanceof AppError) {
    console.error(err.message);
    process.exitCode = 1;
  } else throw err;
} finally {
  await pageCache.close();
  await database.close();
}
