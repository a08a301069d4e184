/**
 * Database chores: `npm run db:migrate`, `npm run db:seed [-- --reset [--products 50000]]`.
 * Uses the same configuration as the server (DATABASE_URL or PGlite in DATA_DIR).
 */
import { resetDatabase, seed, seedIfEmpty } from '@/lib/server/demo/seed';
import { createServices } from '@/lib/server/services';
import { openStoreDatabase } from './store-database';

const [command, ...flags] = process.argv.slice(2);
// A bad variable stops start-up with a message that names it, not a stack trace.
const { config, log, database } = await openStoreDatabase();
const services = createServices({ config, db: database.db, clock: () => new Date(), log });
try {
  if (command === 'migrate') {
    log.info('migrations applied', { driver: database.driver });
  } else if (command === 'prepare') {
    // run by `npm start`: configuration checked, migrations applied, demo store seeded when empty
    const seeded = config.demo ? await seedIfEmpty(services) : false;
    log.info('database ready', { driver: database.driver, seeded });
  } else if (command === 'seed') {
    if (!config.demo) {
      console.error('STORE_MODE=live: a live store is never seeded with demo data');
      process.exitCode = 1;
    } else if (flags.includes('--reset')) {
      await resetDatabase(services);
      await seed(services);
      // `--products 50000`: the large store the benchmarks measure, grown from the demo one.
      const products = Number(flags[flags.indexOf('--products') + 1] ?? 0);
      if (flags.includes('--products')) {
        if (!Number.isInteger(products) || products < 1) throw new Error('--products takes a whole number, e.g. --products 50000');
        const { growStore } = await import('@/lib/server/demo/seed-scale');
        const timings = await growStore(database.db, { products }, log);
        log.info('large store seeded', { products, ms: timings });
      }
    } else if (!(await seedIfEmpty(services))) {
      log.info('database already has products; use --reset to rebuild the demo data');
    }
  } else {
    console.error('usage: db.ts migrate | prepare | seed [--reset [--products N]]');
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
