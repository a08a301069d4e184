/**
 * How fast the shopping feeds answer (ADR 0031), on a store given by `--database-url` (the
 * 50,000-product one: `npm run db:seed -- --reset --products 50000`) or the demo store:
 *   npx tsx scripts/feed-timing.ts [--database-url postgres://…] [--product 123]
 *
 * 1. the first request of each feed on a store with no copy yet (streamed; time to first byte and
 *    to the end), then a kept answer and a conditional one;
 * 2. the first request of each feed after the store starts again (answered from the database's copy);
 * 3. a price change (`npm run catalogue -- set-price`): every fetch of the Google feed of Nigeria
 *    timed until the new price shows, and how long that took from the command's end.
 */
import { execFile } from 'node:child_process';
import { get } from 'node:http';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { startServer, type RunningServer } from '../tests/support/server';

const run = promisify(execFile);
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const databaseUrl = arg('database-url');
const FEEDS = ['google-NG.xml', 'google-ZA.xml', 'meta-NG.csv', 'meta-ZA.csv'];

/**
 * One fetch, read to the end as sent (a gzipped answer is not unpacked: its bytes on the wire are
 * counted). A feed's text is too large to keep: `find` is looked for in it as it arrives.
 */
function timed(server: RunningServer, file: string, headers: Record<string, string> = {}, find?: string): Promise<{ status: number; firstByteMs: number; totalMs: number; bytes: number; etag: string | null; found: boolean }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(`${server.baseUrl}/feeds/${file}`, { headers }, (res) => {
      const firstByteMs = performance.now() - started;
      let bytes = 0;
      let found = false;
      let tail = '';
      res.on('data', (chunk: Buffer) => void (bytes += chunk.length));
      const text = find && res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
      if (find) {
        text.on('data', (chunk: Buffer) => {
          if (found) return;
          const seen = tail + chunk.toString('latin1');
          found = seen.includes(find);
          tail = seen.slice(-find.length);
        });
      }
      text.on('end', () => resolve({ status: res.statusCode ?? 0, firstByteMs, totalMs: performance.now() - started, bytes, etag: (res.headers.etag as string | undefined) ?? null, found }));
      text.on('error', reject);
    }).on('error', reject);
  });
}

const ms = (n: number) => `${Math.round(n)} ms`;
const gzip = { 'accept-encoding': 'gzip' };

async function start(): Promise<RunningServer> {
  return startServer(databaseUrl ? 'pg' : 'pglite', { LOG_LEVEL: 'error' }, databaseUrl ? { databaseUrl } : {});
}

let server = await start();
try {
  const db = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  await db?.connect();
  if (!process.argv.includes('--keep-copies')) {
    // A store with no copy: what the first request ever costs.
    await db?.query('delete from feed_copies; delete from feed_pieces');
    console.log('feed | first ever (streamed): first byte / end | kept (gzip) | If-None-Match');
    // The four at once, as a catalogue's crawler and a start would meet them.
    const firsts = await Promise.all(FEEDS.map((file) => timed(server, file)));
    for (const [i, file] of FEEDS.entries()) {
      const first = firsts[i]!;
      // The copy is written once the read ends; a conditional fetch then gets the kept one.
      const kept = await timed(server, file, gzip);
      const conditional = await timed(server, file, { ...gzip, 'if-none-match': kept.etag ?? '' });
      console.log(`${file} | ${ms(first.firstByteMs)} / ${ms(first.totalMs)} (${(first.bytes / 1e6).toFixed(1)} MB of text) | ${ms(kept.totalMs)} (${(kept.bytes / 1e6).toFixed(1)} MB gzip) | ${conditional.status} in ${ms(conditional.totalMs)}`);
    }

  }
  await server.stop();
  server = await start();
  console.log('\nfeed | first after a start (the database copy): first byte / end | the next, while the feed is read again behind: first byte / end');
  for (const file of FEEDS) {
    const first = await timed(server, file, gzip);
    const next = await timed(server, file, gzip);
    console.log(`${file} | ${first.status} in ${ms(first.firstByteMs)} / ${ms(first.totalMs)} | ${next.status} in ${ms(next.firstByteMs)} / ${ms(next.totalMs)}`);
  }
  // Let the reads behind finish before the price change.
  await new Promise((r) => setTimeout(r, Number(arg('settle-ms') ?? 60_000)));

  const productId = Number(arg('product') ?? 1);
  const old = Number((await db!.query<{ p: string }>(`select max(price_minor) as p from variant_prices vp join variants v on v.id = vp.variant_id where v.product_id = $1 and vp.market = 'NG'`, [productId])).rows[0]!.p);
  // Odd kobo, so the new price is found in the feed's text and nowhere else.
  const price = ((old + 77_737) / 100).toFixed(2);
  await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-price', String(productId), price], { env: { ...process.env, DATABASE_URL: server.databaseUrl ?? databaseUrl ?? '', LOG_LEVEL: 'silent' } });
  const changed = performance.now();
  const fetches: number[] = [];
  for (;;) {
    const r = await timed(server, 'google-NG.xml', gzip, `<g:price>${price} NGN</g:price>`);
    fetches.push(r.firstByteMs);
    if (r.found) break;
    if (performance.now() - changed > 120_000) throw new Error('the new price never reached the feed');
  }
  console.log(`\nprice change of product ${productId} to ${price} NGN: in the feed ${ms(performance.now() - changed)} after the command ended; ${fetches.length} fetches (gzip, answered within, first byte): slowest ${ms(Math.max(...fetches))}, each: ${fetches.map(ms).join(', ')}`);
  await db?.end();
} finally {
  await server.stop();
}
