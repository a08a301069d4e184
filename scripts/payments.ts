/**
 * Staff command for payments:
 *   npm run payments -- refund REFERENCE [AMOUNT]   refund through the provider: all that is left, or AMOUNT
 *                                                  in major units (12500.50 = ₦12,500.50); refunding again
 *                                                  does not refund twice
 *   npm run payments -- reconcile                   one reconciliation pass now (what the server runs on a timer)
 *   npm run payments -- release REFERENCE           let go of a refund whose outcome was lost, after checking
 *                                                  with the provider that nothing was refunded
 */
import { AppError } from '../src/lib/domain/errors';
import { formatMoney, toMajor, toMinor, type CurrencyCode } from '../src/lib/domain/money';
import { getConfig } from '../src/lib/server/config';
import { openDatabase } from '../src/lib/server/db/client';
import { createLogger } from '../src/lib/server/log';
import { reconciliationFor } from '../src/lib/server/reconciliation';
import { createServices } from '../src/lib/server/services';

const usage = 'usage: npm run payments -- refund <reference> [amount] | reconcile | release <reference>';
const [command, reference, amountText] = process.argv.slice(2);
const known = (command === 'refund' || command === 'release') && reference ? true : command === 'reconcile' && !reference;
let amountMinor: number | undefined;
if (amountText !== undefined) {
  if (!/^\d+(\.\d{1,2})?$/.test(amountText) || toMinor(Number(amountText)) <= 0) {
    console.error(`amount must be a positive number in major units, e.g. 12500 or 12500.50\n${usage}`);
    process.exit(2);
  }
  amountMinor = toMinor(Number(amountText));
}
if (!known || (amountText !== undefined && command !== 'refund')) {
  console.error(usage);
  process.exit(2);
}

const config = getConfig();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const services = createServices({ config, db: database.db, clock: () => new Date(), log });
const money = (minor: number, currency: string) => formatMoney(toMajor(minor), currency as CurrencyCode);
try {
  if (command === 'refund') {
    const r = await services.checkout.refund(reference!, amountMinor);
    const what = r.refundedNowMinor > 0 ? `refunded ${money(r.refundedNowMinor, r.currency)}` : 'already refunded, nothing sent';
    console.log(
      `${r.reference}: ${what}; ${money(r.refundedMinor, r.currency)} of ${money(r.amountMinor, r.currency)} refunded (${r.status}, refund ${r.refundId})`,
    );
  } else if (command === 'release') {
    console.log((await services.checkout.releaseRefundClaim(reference!)) ? `${reference}: refund claim released` : `${reference}: no refund in progress`);
  } else {
    const report = await reconciliationFor(services).reconcile();
    console.log(report.ran ? `reconciled: ${JSON.stringify(report)}` : 'another server is reconciling right now; nothing done');
  }
} catch (err) {
  if (err instanceof AppError) {
    console.error(err.message);
    process.exitCode = 1;
  } else throw err;
} finally {
  await database.close();
}
