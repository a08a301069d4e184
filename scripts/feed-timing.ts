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
import { promisify } from 'node:util';
import pg from 'pg';
import { startServer, type RunningServer } from '../tests/support/server';

const run = promisify(execFile);
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const databaseUrl = arg('database-url');
const FEEDS = ['google-NG.xml', 'google-ZA.xml', 'meta-NG.csv', 'meta-ZA.csv'];

async function timed(server: RunningServer, file: string, headers: Record<string, string> = {}): Promise<{ status: number; firstByteMs: number; totalMs: number; bytes: number; etag: string | null; text: string }> {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}/feeds/${file}`, { headers });
  const reader = res.body?.getReader();
  let firstByteMs = performance.now() - started;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  if (reader) {
    let first = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (first) firstByteMs = performance.now() - started;
      first = false;
      bytes += value.length;
      if (!headers['accept-encoding']) chunks.push(value);
    }
  }
  return { status: res.status, firstByteMs, totalMs: performance.now() - started, bytes, etag: res.headers.get('etag'), text: Buffer.concat(chunks).toString() };
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
  // A store with no copy: what the first request ever costs.
  await db?.query('delete from feed_copies');
  console.log('feed | first ever (streamed): first byte / end | kept (gzip) | If-None-Match');
  for (const file of FEEDS) {
    const first = await timed(server, file);
    // The copy is written once the read ends; a conditional fetch then gets the kept one.
    const kept = await timed(server, file, gzip);
    const conditional = await timed(server, file, { ...gzip, 'if-none-match': kept.etag ?? '' });
    console.log(`${file} | ${ms(first.firstByteMs)} / ${ms(first.totalMs)} (${(first.bytes / 1e6).toFixed(1)} MB) | ${ms(kept.totalMs)} (${(kept.bytes / 1e6).toFixed(1)} MB) | ${conditional.status} in ${ms(conditional.totalMs)}`);
  }

  await server.stop();
  server = await start();
  console.log('\nfeed | first after a start (the database copy) | the next, while the feed is read again behind');
  for (const file of FEEDS) {
    const first = await timed(server, file, gzip);
    const next = await timed(server, file, gzip);
    console.log(`${file} | ${first.status} in ${ms(first.totalMs)} | ${next.status} in ${ms(next.totalMs)}`);
  }
  // Let the reads behind finish before the price change.
  await new Promise((r) => setTimeout(r, Number(arg('settle-ms') ?? 60_000)));

  const productId = Number(arg('product') ?? 1);
  const before = await timed(server, 'google-NG.xml');
  const old = new RegExp(`<g:item_group_id>${productId}</g:item_group_id>.*?<g:price>([\\d.]+) NGN`).exec(before.text.replace(/\n/g, ''))?.[1];
  const price = (Math.round(Number(old ?? 1000)) + 777).toFixed(2);
  await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-price', String(productId), price], { env: { ...process.env, DATABASE_URL: server.databaseUrl ?? databaseUrl ?? '', LOG_LEVEL: 'silent' } });
  const changed = performance.now();
  const fetches: number[] = [];
  for (;;) {
    const r = await timed(server, 'google-NG.xml');
    fetches.push(r.totalMs);
    if (r.text.includes(`<g:price>${price} NGN</g:price>`)) break;
    if (performance.now() - changed > 120_000) throw new Error('the new price never reached the feed');
  }
  console.log(`\nprice change of product ${productId} to ${price} NGN: in the feed ${ms(performance.now() - changed)} after the command ended; ${fetches.length} fetches, slowest ${ms(Math.max(...fetches))}, each: ${fetches.map(ms).join(', ')}`);
  await db?.end();
} finally {
  await server.stop();
}
