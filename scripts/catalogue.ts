/**
 * Staff command for the catalogue, e.g.
 *   npm run catalogue -- set-price 12 250000.00     (every variant of product 12, in Nigeria, in naira)
 *   npm run catalogue -- set-price 12 3200 ZA       (every variant's South African price, in rand)
 *   npm run catalogue -- set-stock 345 8            (a variant's stock)
 * Cached pages showing the change are invalidated on every app server (PostgreSQL NOTIFY).
 */
import { DEFAULT_MARKET, parseMarket } from '@/lib/domain/markets';
import { toMinor } from '@/lib/domain/money';
import { runStaffCommand } from './staff-command';

const usage = 'usage: npm run catalogue -- set-price <productId> <price> [NG|ZA] | set-stock <variantId> <stock>';
const [command, idText, valueText, marketText] = process.argv.slice(2);
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
