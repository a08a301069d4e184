/**
 * `npm run money:check`: proves the money of every order adds up (ADR 0021): charged + credit used +
 * collected (or still due) = the order's total; refunded + credited back <= what was taken; every
 * store-credit balance equals its ledger; every variant's stock equals its ledger. Reads the
 * database the server uses (DATABASE_URL, or PGlite in DATA_DIR). Exits 1 naming each difference.
 */
import { checkMoney } from '@/lib/server/orders/money-check';
import { openStoreDatabase } from './store-database';

const { database } = await openStoreDatabase();
try {
  const result = await checkMoney(database.db);
  const { orders, orderMoneyRows, creditBalances, variants, refundsUnpaid } = result.counts;
  // Refunds owed and not paid yet are in their orders' accounts already; how many wait is worth knowing.
  const owed = refundsUnpaid > 0 ? `; ${refundsUnpaid} refund(s) owed, not paid yet (see /admin/refunds)` : '';
  if (result.ok) {
    console.log(`money check: ok. ${orders} orders (${orderMoneyRows} rows of their money), ${creditBalances} store-credit balances, ${variants} variants${owed}`);
  } else {
    console.error(`money check: ${result.problems.length} difference(s)${result.problems.length >= 50 ? ' (the first of each kind)' : ''}:`);
    for (const p of result.problems) console.error(`  ${p}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
