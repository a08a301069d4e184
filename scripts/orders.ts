/**
 * Staff command for orders, e.g. `npm run orders -- set-status ML-ABCD2345 delivered`.
 * Only the allowed transitions are made (pending -> processed -> delivered; pending or
 * processed -> cancelled), and the shopper is e-mailed about each change.
 */
import { AppError } from '../src/lib/domain/errors';
import { getConfig } from '../src/lib/server/config';
import { openDatabase } from '../src/lib/server/db/client';
import { createLogger } from '../src/lib/server/log';
import { createServices } from '../src/lib/server/services';

const usage = 'usage: npm run orders -- set-status <orderId|trackingNumber> <processed|delivered|cancelled>';
const [command, key, status] = process.argv.slice(2);
if (command !== 'set-status' || !key || !status) {
  console.error(usage);
  process.exit(2);
}

const config = getConfig();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const services = createServices({ config, db: database.db, clock: () => new Date(), log });
try {
  const { order, from } = await services.orders.setStatus(key, status);
  console.log(`${order.trackingNumber}: ${from} -> ${order.status} (shopper e-mailed)`);
} catch (err) {
  if (err instanceof AppError) {
    console.error(err.message);
    process.exitCode = 1;
  } else throw err;
} finally {
  await database.close();
}
