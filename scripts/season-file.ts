/**
 * Writes a season's catalogue file for timing the import: N new heels (313 by default, so about
 * 5,000 rows), each in four colours and four sizes with its stock and both markets' prices, and one
 * 1200x1500 JPEG per product in a ZIP beside the CSV:
 *   npx tsx scripts/season-file.ts /tmp/season.csv [--products 313] [--price 250000]
 *   npm run catalogue -- import /tmp/season.csv /tmp/season.zip
 * The same file with another --price imports again as 5,000 price changes.
 */
import { writeFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { csvLines } from '@/lib/server/infra/csv';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const out = process.argv[2];
const count = Number(arg('products', '313'));
const price = arg('price', '250000');
if (!out?.endsWith('.csv') || !Number.isInteger(count) || count < 1) {
  console.error('usage: npx tsx scripts/season-file.ts <file.csv> [--products 313] [--price 250000]');
  process.exit(2);
}

const COLOURS = ['Black', 'Ivory', 'Tan', 'Burgundy'];
const SIZES = ['EU 37', 'EU 38', 'EU 39', 'EU 40'];
const rows = [['Handle', 'Title', 'Description', 'Category', 'Status', 'Option1 Colour', 'Option2 Size', 'SKU', 'Inventory', 'Price NG', 'Price ZA', 'Image Src']];
const pictures: Record<string, Uint8Array> = {};
for (let p = 0; p < count; p++) {
  const picture = `heel-${p}.jpg`;
  let first = true;
  for (const colour of COLOURS) {
    for (const size of SIZES) {
      const sku = `SH-${p}-${colour.slice(0, 2).toUpperCase()}-${size.slice(3)}`;
      const lead = first ? [`Season Heel ${p}`, 'A patent pump on a slim heel.', 'Shoes > Heels', 'active'] : ['', '', '', ''];
      rows.push([`season-heel-${p}`, ...lead, colour, size, sku, String(1 + ((p + rows.length) % 7)), price, '3200', first ? picture : '']);
      first = false;
    }
  }
  const background = { r: p % 256, g: (p * 7) % 256, b: 90 };
  pictures[picture] = new Uint8Array(await sharp({ create: { width: 1200, height: 1500, channels: 3, background } }).jpeg().toBuffer());
}
writeFileSync(out, csvLines(rows));
writeFileSync(out.replace(/\.csv$/, '.zip'), zipSync(pictures));
console.log(`${out}: ${rows.length - 1} rows, ${count} pictures in ${out.replace(/\.csv$/, '.zip')}`);
