/**
 * Staff command for the catalogue, e.g.
 *   npm run catalogue -- set-price 12 250000.00     (every variant of product 12, in Nigeria, in naira)
 *   npm run catalogue -- set-price 12 3200 ZA       (every variant's South African price, in rand)
 *   npm run catalogue -- set-stock 345 8            (a variant's stock)
 *   npm run catalogue -- import season.csv [pictures.zip] [--dry-run]
 *                                                   (checks the file whole, lists every problem, then applies it
 *                                                   in one transaction, as /admin/products/import does)
 * Cached pages showing the change are invalidated on every app server (PostgreSQL NOTIFY).
 */
import { DEFAULT_MARKET, parseMarket } from '@/lib/domain/markets';
import { toMinor } from '@/lib/domain/money';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { STAFF_COMMAND } from '@/lib/server/catalogue/admin/context';
import type { Services } from '@/lib/server/services';
import { runStaffCommand } from './staff-command';

/** Checks a file, prints its problems or what it changes, then applies it (not with --dry-run). */
async function importFile(services: Services, args: string[]): Promise<void> {
  const dryRun = args.includes('--dry-run');
  const [file, zip] = args.filter((a) => a !== '--dry-run');
  const imports = services.catalogueImports;
  const settled = async (id: string) => {
    for (;;) {
      await imports.runDue();
      const run = await imports.get(id);
      if (run.status !== 'checking' && run.status !== 'applying') return run;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const started = Date.now();
  const { id } = await imports.upload(STAFF_COMMAND, { fileName: basename(file!), csv: new Uint8Array(readFileSync(file!)), images: zip ? new Uint8Array(readFileSync(zip)) : null });
  const checked = await settled(id);
  console.log(`import ${id}: ${checked.rows} rows checked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const e of checked.errors) console.log(`row ${e.row}\t${e.column}\t${e.message}`);
  if (checked.errors.length) {
    console.error(`${checked.errors.length} problems: nothing was changed`);
    process.exitCode = 1;
    return;
  }
  console.log(JSON.stringify(checked.summary && { ...checked.summary, priceChanges: checked.summary.priceChanges.length }));
  if (dryRun || checked.nothingChanges) return;
  const applyStarted = Date.now();
  await imports.apply(id);
  const applied = await settled(id);
  console.log(`import ${id}: ${applied.status} in ${((Date.now() - applyStarted) / 1000).toFixed(1)} s`);
  for (const e of applied.errors) console.log(`row ${e.row}\t${e.column}\t${e.message}`);
  if (applied.status !== 'applied') process.exitCode = 1;
}

const usage = 'usage: npm run catalogue -- set-price <productId> <price> [NG|ZA] | set-stock <variantId> <stock> | import <file.csv> [pictures.zip] [--dry-run]';
const [command, idText, valueText, marketText] = process.argv.slice(2);
if (command === 'import') {
  if (!idText) {
    console.error(usage);
    process.exit(2);
  }
  await runStaffCommand((services) => importFile(services, process.argv.slice(3)));
  process.exit();
}
const id = Number(idText);
const value = Number(valueText);
const market = marketText === undefined ? DEFAULT_MARKET : parseMarket(marketText);
if (!['set-price', 'set-stock'].includes(command ?? '') || !Number.isInteger(id) || !Number.isFinite(value) || !market) {
  console.error(usage);
  process.exit(2);
}

await runStaffCommand(async (services) => {
  if (command === 'set-price') {
    const row = await services.catalogueAdmin.setPrice(id, toMinor(value), undefined, market);
    console.log(`product ${row.productId}: price in ${row.market} ${value} ${row.currency}`);
  } else {
    const row = await services.catalogueAdmin.setStock(id, value);
    console.log(`variant ${row.variantId} (product ${row.productId}): stock ${row.stock}`);
  }
});
