/**
 * Staff command for back-office access, e.g.
 *   npm run staff -- grant ada@example.com --role staff     (or --role owner, or --role editor: the pages only)
 *   npm run staff -- revoke ada@example.com                  (back to customer; known browsers forgotten)
 *   npm run staff -- list
 * Each change is written to the audit log as done by "staff command".
 */
import { AppError } from '@/lib/domain/errors';
import { getConfig } from '@/lib/server/infra/config';
import { openDatabase } from '@/lib/server/infra/db/client';
import { createLogger } from '@/lib/server/infra/log';
import { createServices } from '@/lib/server/services';

const usage = 'usage: npm run staff -- grant <email> --role staff|owner|editor | revoke <email> | list';
const args = process.argv.slice(2);
const [command, email] = args;
const roleAt = args.indexOf('--role');
const role = roleAt >= 0 ? args[roleAt + 1] : undefined;
const valid =
  (command === 'grant' && email && (role === 'staff' || role === 'owner' || role === 'editor')) || (command === 'revoke' && email) || command === 'list';
if (!valid) {
  console.error(usage);
  process.exit(2);
}

const config = getConfig();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const services = createServices({ config, db: database.db, clock: () => new Date(), log });
const actor = { id: null, email: 'staff command' };
try {
  if (command === 'list') {
    for (const s of await services.staff.list()) console.log(`${s.role}\t${s.email}\t${s.name}`);
  } else if (command === 'grant') {
    const r = await services.staff.grant(actor, email!, role as 'staff' | 'owner' | 'editor');
    console.log(`${r.email}: ${r.from} -> ${r.to}`);
  } else {
    const r = await services.staff.revoke(actor, email!);
    console.log(`${r.email}: ${r.from} -> ${r.to}`);
  }
} catch (err) {
  if (err instanceof AppError) {
    console.error(err.message);
    process.exitCode = 1;
  } else throw err;
} finally {
  await database.close();
}
