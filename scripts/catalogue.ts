/**
 * Staff command for the catalogue, e.g.
 *   npm run catalogue -- set-price 12 250000.00     (a product's price, in major units of its currency)
 *   npm run catalogue -- set-stock 345 8            (a variant's stock)
 * Cached pages showing the change are invalidated on every app server (PostgreSQL NOTIFY).
 */
import { toMinor } from '../src/lib/domain/money';
import { runStaffCommand } from './staff-command';

const usage = 'usage: npm run catalogue -- set-price <productId> <price> | set-stock <variantId> <stock>';
const [command, idText, valueText] = process.argv.slice(2);
const id = Number(idText);
const value = Number(valueText);
if (!['set-price', 'set-stock'].includes(command ?? '') || !Number.isInteger(id) || !Number.isFinite(value)) {
  console.error(usage);
  process.exit(2);
}

await runStaffCommand(async (services) => {
  if (command === 'set-price') {
    const row = await services.catalogueAdmin.setPrice(id, toMinor(value));
    console.log(`product ${row.productId}: price ${value} ${row.currency}`);
  } else {
    const row = await services.catalogueAdmin.setStock(id, value);
    console.log(`variant ${row.variantId} (product ${row.productId}): stock ${row.stock}`);
  }
});
