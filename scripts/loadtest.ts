/**
 * Shopper load through nginx against a cluster of app servers on one PostgreSQL (scripts/cluster.ts):
 *
 *   npm run loadtest                                   # 100 shoppers for 60 s, 3 servers, seed 1
 *   npm run loadtest -- --shoppers 20 --duration 20 --seed 7 --servers 3
 *   npm run loadtest -- --faults                       # kill -9 a server, cut every DB connection, SIGTERM a server
 *
 * Shoppers think between steps like people on phones: a uniform pause of 0 to 2 x --think-ms
 * (default 2500 ms, so 2.5 s on average); `--think-ms 0` makes each shopper a tight loop.
 * Each shopper runs journeys picked by a seeded PRNG (the same seed gives the same mix):
 * anonymous (home, a filtered collection, product pages, search) or buying (sign in, product,
 * add to cart, change the quantity, delivery or pickup, initiate, pay on the simulated provider,
 * place the order, view it). After the run the invariants are checked in PostgreSQL directly;
 * the command exits 1 when one breaks. Everything stays on 127.0.0.1 and stops by itself.
 *
 * A request FAILS when it gets no answer (connection error, 20 s timeout), a 5xx, a 429, or any
 * status the step does not expect. Expected refusals are not failures: add to cart, quantity
 * change or initiate answering 400 because the variant ran out ("out of stock", "Only N left"),
 * and place-order answering 402 "sold out while you were paying" (the payment is refunded).
 * With --faults, failures of requests that overlap a fault window (kill -9: 6 s from the kill;
 * database cut: from the cut until every server's health is 200 again, plus 2 s) are reported
 * apart and allowed; there is no window for SIGTERM: a draining server must not cut a request.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { PAYMENT_STATUSES as PAY } from '@/lib/domain/payments';
import { prng, type Rng } from '../tests/support/prng';
import { startCluster, freePort, type Cluster } from './cluster';

const run = promisify(execFile);
/** Payment states as SQL literals, for the checks' queries. */
const states = (...names: string[]) => names.map((n) => `'${n}'`).join(', ');
const { values: args } = parseArgs({
  options: {
    shoppers: { type: 'string', default: '100' },
    duration: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    servers: { type: 'string', default: '3' },
    faults: { type: 'boolean', default: false },
    port: { type: 'string' },
    'think-ms': { type: 'string', default: '2500' },
    'buy-share': { type: 'string', default: '0.35' },
  },
});
const SHOPPERS = Number(args.shoppers);
const DURATION_MS = Number(args.duration) * 1000;
const SEED = Number(args.seed);
const THINK_MS = Number(args['think-ms']);
const BUY_SHARE = Number(args['buy-share']);
const PASSWORD = 'Load-Test-2026!';


// ---------------------------------------------------------------- measuring
interface StepStats {
  latencies: number[];
  ok: number;
  expected: number;
  failed: number;
  failedInFault: number;
}
const stats = new Map<string, StepStats>();
const failures: { step: string; what: string; at: number; inFault: boolean }[] = [];
const faultWindows: { name: string; from: number; to: number }[] = [];
let started = 0;
const openWindows = new Set<{ name: string; from: number; to: number }>();

/** Whether a request that ran from `from` to `to` overlapped a fault (it was in flight, or started during one). */
function inFaultWindow(from: number, to = from) {
  for (const w of openWindows) if (to >= w.from) return true;
  return faultWindows.some((w) => from <= w.to && to >= w.from);
}

function stat(step: string): StepStats {
  let s = stats.get(step);
  if (!s) stats.set(step, (s = { latencies: [], ok: 0, expected: 0, failed: 0, failedInFault: 0 }));
  return s;
}

class StepFailed extends Error {}

type Outcome = 'ok' | 'expected' | 'fail';
interface Answer {
  status: number;
  body: any;
  location: string | null;
}

let siteUrl = '';

async function request(
  step: string,
  method: string,
  path: string,
  opts: { token?: string; json?: unknown; form?: string; accept?: string; judge?: (a: Answer) => Outcome } = {},
): Promise<Answer & { outcome: Outcome }> {
  const headers: Record<string, string> = { accept: opts.accept ?? 'application/json', 'accept-encoding': 'br, gzip' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = opts.form;
  }
  // A browser sends its page's Origin on every form post (the CSRF rule).
  if (method !== 'GET') headers.origin = siteUrl;
  const t0 = performance.now();
  const at = Date.now();
  const s = stat(step);
  let answer: Answer;
  try {
    const res = await fetch(siteUrl + path, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
    const text = await res.text();
    let parsed: any = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep the text
      }
    }
    answer = { status: res.status, body: parsed, location: res.headers.get('location') };
  } catch (err) {
    const inFault = inFaultWindow(at, Date.now());
    s.latencies.push(performance.now() - t0);
    s[inFault ? 'failedInFault' : 'failed']++;
    failures.push({ step, what: `${method} ${path}: ${(err as Error).message}`, at: at - started, inFault });
    throw new StepFailed(step);
  }
  s.latencies.push(performance.now() - t0);
  let outcome: Outcome;
  if (answer.status >= 500 || answer.status === 429) outcome = 'fail';
  else outcome = opts.judge ? opts.judge(answer) : answer.status >= 200 && answer.status < 400 ? 'ok' : 'fail';
  if (outcome === 'fail') {
    const inFault = inFaultWindow(at, Date.now());
    s[inFault ? 'failedInFault' : 'failed']++;
    const message = typeof answer.body === 'object' ? answer.body?.message : String(answer.body).slice(0, 80);
    failures.push({ step, what: `${method} ${path}: ${answer.status} ${message ?? ''}`, at: at - started, inFault });
    throw new StepFailed(step);
  }
  s[outcome]++;
  return { ...answer, outcome };
}

const soldOut = (a: Answer) => a.status === 400 && /out of stock|left in stock|no longer available/i.test(a.body?.message ?? '');
const judgeStock = (a: Answer): Outcome => (a.status >= 200 && a.status < 300 ? 'ok' : soldOut(a) ? 'expected' : 'fail');

// ---------------------------------------------------------------- the store's data
interface Catalogue {
  productIds: number[];
  categoryIds: number[];
  colorIds: number[];
  sizeIds: number[];
  words: string[];
}

interface Shopper {
  email: string;
  id: string;
  token?: string;
}

/** What the shoppers saw: checked against the database afterwards. */
const seen = {
  ordersPlaced: new Map<string, string>(), // payment reference -> order id
  soldOutAfterPaying: new Set<string>(),
  paid: new Set<string>(),
  unfinished: new Set<string>(), // paid, but place-order never answered (faults)
  journeys: { anonymous: 0, buying: 0, cut: 0, soldOut: 0 },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const think = (rng: Rng) => sleep(THINK_MS > 0 ? rng.int(THINK_MS * 2) : 0);

async function anonymousJourney(rng: Rng, cat: Catalogue) {
  await request('home', 'GET', '/', { accept: 'text/html' });
  await think(rng);
  const filters = new URLSearchParams({ categoryId: String(rng.pick(cat.categoryIds)) });
  if (rng.next() < 0.5) filters.set('color', String(rng.pick(cat.colorIds)));
  if (rng.next() < 0.3) filters.set('size', String(rng.pick(cat.sizeIds)));
  if (rng.next() < 0.5) filters.set('sort', rng.pick(['low-high', 'high-low']));
  await request('collection', 'GET', `/collection?${filters}`, { accept: 'text/html' });
  for (let i = 0, n = 1 + rng.int(3); i < n; i++) {
    await think(rng);
    await request('product', 'GET', `/product/${rng.pick(cat.productIds)}`, { accept: 'text/html' });
  }
  await think(rng);
  await request('search', 'GET', `/collection?q=${encodeURIComponent(rng.pick(cat.words))}`, { accept: 'text/html' });
  seen.journeys.anonymous++;
}

async function buyingJourney(rng: Rng, cat: Catalogue, shopper: Shopper) {
  // A shopper signs in once and stays signed in (sessions last for weeks), as on a phone.
  if (!shopper.token) {
    const login = await request('sign in', 'POST', '/api/v1/user-auth/login', { json: { email: shopper.email, password: PASSWORD } });
    shopper.token = login.body.data.token as string;
  }
  const token = shopper.token;
  const userId = shopper.id;
  // Leftovers from a journey cut by a fault go first, as a shopper would clear them.
  const before = await request('cart', 'GET', `/api/v1/cart/${userId}`, { token });
  for (const item of before.body.data.items as { productId: number; color: string | null; size: string | null }[]) {
    await request('remove', 'DELETE', '/api/v1/cart/remove-product', { token, json: { productId: item.productId, color: item.color, size: item.size, userId } });
  }
  await think(rng);
  let line: { productId: number; color: string | null; size: string | null; stock: number } | undefined;
  for (let tries = 0; tries < 4 && !line; tries++) {
    const productId = rng.pick(cat.productIds);
    const detail = await request('product (signed in)', 'GET', `/api/v1/products/${productId}`, { token });
    const options = (detail.body.data.variants as { color: string | null; size: string | null; stock: number }[]).filter((v) => v.stock > 0);
    if (options.length) line = { productId, ...rng.pick(options) };
  }
  if (!line) return;
  await think(rng);
  const key = { productId: line.productId, color: line.color, size: line.size, userId };
  const added = await request('add to cart', 'POST', '/api/v1/cart/add-to-cart', { token, json: { ...key, quantity: 1 }, judge: judgeStock });
  if (added.outcome === 'expected') return void seen.journeys.soldOut++;
  await think(rng);
  const cart = await request('cart', 'GET', `/api/v1/cart/${userId}`, { token });
  const quantity = line.stock >= 2 && rng.next() < 0.5 ? 2 : 1;
  const changed = await request('change quantity', 'PATCH', '/api/v1/cart/update-quantity', { token, json: { ...key, quantity }, judge: judgeStock });
  if (changed.outcome === 'expected') await request('change quantity', 'PATCH', '/api/v1/cart/update-quantity', { token, json: { ...key, quantity: 1 }, judge: judgeStock });
  await think(rng);
  const deliveryOption = rng.next() < 0.5 ? 'delivery' : 'pickup';
  await request('delivery or pickup', 'PUT', `/api/v1/cart/delivery-option/${cart.body.data.id}`, { token, json: { deliveryOption } });
  await think(rng);
  const initiated = await request('initiate', 'POST', '/api/v1/orders/initiate', { token, json: {}, judge: judgeStock });
  if (initiated.outcome === 'expected') {
    seen.journeys.soldOut++;
    await request('remove', 'DELETE', '/api/v1/cart/remove-product', { token, json: { ...key } });
    return;
  }
  const reference: string = initiated.body.data.reference;
  await think(rng);
  const paid = await request('pay', 'POST', `/pay/simulated/${encodeURIComponent(reference)}`, {
    form: 'outcome=pay',
    accept: 'text/html',
    judge: (a) => (a.status === 303 ? 'ok' : 'fail'),
  });
  if (!paid.location?.includes(`reference=${reference}`)) throw new StepFailed('pay');
  seen.paid.add(reference);
  seen.unfinished.add(reference);
  // The return page places the order; a shopper whose page failed reloads it a few times.
  let placed: (Answer & { outcome: Outcome }) | undefined;
  for (let attempt = 0; attempt < 5 && !placed; attempt++) {
    try {
      placed = await request('place order', 'POST', '/api/v1/orders/place-order', {
        token,
        json: { paymentReference: reference },
        judge: (a) => (a.status === 200 ? 'ok' : a.status === 402 && /sold out while you were paying/.test(a.body?.message ?? '') ? 'expected' : 'fail'),
      });
    } catch (err) {
      if (!(err instanceof StepFailed) || !inFaultWindow(Date.now())) throw err;
      await sleep(1000);
    }
  }
  if (!placed) throw new StepFailed('place order');
  seen.unfinished.delete(reference);
  if (placed.outcome === 'expected') {
    seen.soldOutAfterPaying.add(reference);
    seen.journeys.soldOut++;
    return;
  }
  seen.ordersPlaced.set(reference, placed.body.data.id);
  await think(rng);
  await request('view order', 'GET', `/api/v1/orders/get-orders?id=${placed.body.data.id}`, { token });
  seen.journeys.buying++;
}

async function shopperLoop(index: number, cat: Catalogue, account: Shopper, deadline: number) {
  const rng = prng(SEED * 1_000_003 + index);
  // Shoppers arrive over the first two seconds, not all in the same millisecond.
  await sleep(rng.int(2000));
  while (Date.now() < deadline) {
    try {
      if (rng.next() < BUY_SHARE) await buyingJourney(rng, cat, account);
      else await anonymousJourney(rng, cat);
    } catch (err) {
      if (!(err instanceof StepFailed)) throw err;
      seen.journeys.cut++;
      await sleep(500);
    }
    await think(rng);
  }
}

// ---------------------------------------------------------------- set-up
async function registerShoppers(count: number): Promise<Shopper[]> {
  const out: Shopper[] = [];
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(siteUrl + path, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: siteUrl, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json: any = await res.json().catch(() => null);
      if (res.status === 503 && attempt < 20) {
        await sleep(500);
        continue;
      }
      if (res.status >= 300) throw new Error(`set-up ${method} ${path}: ${res.status} ${json?.message}`);
      return json;
    }
  };
  let next = 0;
  const one = async () => {
    while (next < count) {
      const i = next++;
      const email = `load.${SEED}.${i}.${Date.now().toString(36)}@example.com`;
      await call('POST', '/api/v1/user-auth/create', {
        firstName: 'Load',
        lastName: `Shopper${i}`,
        email,
        password: PASSWORD,
        phoneNumber: '+234 803 123 4567',
        country: 'nigeria',
      });
      const mail = await call('GET', `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`, undefined);
      const code = /code is (\d{4})/.exec(mail[0].text)![1];
      await call('POST', '/api/v1/user-auth/verify-otp', { email, otp: code });
      const login = await call('POST', '/api/v1/user-auth/login', { email, password: PASSWORD });
      const token = login.data.token;
      const id = login.data.user.id;
      await call('POST', '/api/v1/address/create', { name: `Load Shopper${i}`, country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: `${i} Allen Avenue`, zipCode: '100271' }, token);
      out[i] = { email, id };
    }
  };
  await Promise.all(Array.from({ length: 4 }, one));
  return out;
}

async function loadCatalogue(db: pg.Pool): Promise<Catalogue> {
  const ids = async (q: string) => (await db.query(q)).rows.map((r) => Number(r.id));
  const names = (await db.query('select name from products where active')).rows.map((r) => String(r.name));
  const words = [...new Set(names.flatMap((n) => n.split(/\s+/)).filter((w) => /^[a-z]{4,}$/i.test(w)))].slice(0, 40);
  return {
    productIds: await ids('select id from products where active order by id'),
    categoryIds: await ids('select id from categories order by id'),
    colorIds: await ids('select id from colors order by id'),
    sizeIds: await ids('select id from sizes order by id'),
    words: words.length ? words : ['bag'],
  };
}

async function stockSnapshot(db: pg.Pool): Promise<Map<number, number>> {
  return new Map((await db.query('select id, stock from variants')).rows.map((r) => [Number(r.id), Number(r.stock)]));
}

// ---------------------------------------------------------------- faults
async function health(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(3000) })).status;
  } catch {
    return 0;
  }
}

const faultLog: string[] = [];
const note = (s: string) => {
  const line = `[${((Date.now() - started) / 1000).toFixed(1)} s] ${s}`;
  faultLog.push(line);
  console.log(line);
};
const problems: string[] = [];

async function killOne(cluster: Cluster) {
  const victim = cluster.servers[1 % cluster.servers.length]!;
  const w = { name: 'kill -9', from: Date.now(), to: Date.now() + 6000 };
  faultWindows.push(w);
  await victim.kill();
  note(`kill -9 app server ${victim.index} (${victim.url})`);
  await sleep(5000);
  await victim.restart();
  note(`app server ${victim.index} restarted (its reconciliation runs at start)`);
}

async function cutDatabase(cluster: Cluster, adminUrl: string, dbName: string) {
  const w = { name: 'database cut', from: Date.now(), to: Infinity };
  openWindows.add(w);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // The database goes away for 3 s: no new connections, every existing one terminated.
  await admin.query(`alter database "${dbName}" allow_connections false`);
  const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
  note(`database cut: ${rowCount} connections terminated, connections refused for 3 s`);
  const during = await Promise.all(cluster.servers.map((s) => health(s.url)));
  note(`health while the database is gone: ${during.join(', ')}`);
  if (during.some((s) => s !== 503)) problems.push(`health answered ${during.join(', ')} while the database was gone (expected 503 from every server)`);
  await sleep(3000);
  await admin.query(`alter database "${dbName}" allow_connections true`);
  await admin.end();
  const deadline = Date.now() + 20_000;
  let after: number[] = [];
  while (Date.now() < deadline) {
    after = await Promise.all(cluster.servers.map((s) => health(s.url)));
    if (after.every((s) => s === 200)) break;
    await sleep(200);
  }
  note(`database back; health ${after.join(', ')} ${after.every((s) => s === 200) ? `(recovered without a restart after ${((Date.now() - w.from) / 1000).toFixed(1)} s)` : ''}`);
  if (!after.every((s) => s === 200)) problems.push('servers did not recover from the database cut within 20 s');
  openWindows.delete(w);
  faultWindows.push({ ...w, to: Date.now() + 2000 });
}

async function terminateOne(cluster: Cluster) {
  const victim = cluster.servers[(2 % cluster.servers.length)]!;
  note(`SIGTERM app server ${victim.index} (${victim.url}): it drains`);
  const t0 = Date.now();
  await victim.terminate();
  note(`app server ${victim.index} exited with ${victim.child.exitCode ?? victim.child.signalCode} after ${Date.now() - t0} ms`);
  if (victim.child.exitCode !== 0) problems.push(`SIGTERM: server exited with ${victim.child.exitCode ?? victim.child.signalCode}`);
  await victim.restart();
  note(`app server ${victim.index} started again`);
}

// ---------------------------------------------------------------- cache coherence
async function priceChangeReachesEveryServer(cluster: Cluster, productId: number): Promise<number> {
  const path = `/api/v1/products/${productId}`;
  const price = async (url: string) => (await (await fetch(url + path)).json()).data.price as number;
  for (const s of cluster.servers) {
    await price(s.url);
    await price(s.url);
  }
  const before = await price(cluster.servers[0]!.url);
  const wanted = before + 1111;
  await run('npx', ['tsx', 'scripts/catalogue.ts', 'set-price', String(productId), String(wanted)], {
    env: { ...process.env, DATABASE_URL: cluster.databaseUrl, LOG_LEVEL: 'silent' },
  });
  const t0 = Date.now();
  let worst = 0;
  for (const s of cluster.servers) {
    for (;;) {
      if ((await price(s.url)) === wanted) break;
      if (Date.now() - t0 > 5000) return Infinity;
      await sleep(20);
    }
    worst = Math.max(worst, Date.now() - t0);
  }
  return worst;
}

// ---------------------------------------------------------------- main
function pct(sorted: number[], p: number) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  const port = args.port ? Number(args.port) : await freePort();
  const serverLog: string[] = [];
  console.log(`load test: ${SHOPPERS} shoppers, ${DURATION_MS / 1000} s, seed ${SEED}, ${args.servers} servers${args.faults ? ', with faults' : ''}`);
  const cluster = await startCluster({
    servers: Number(args.servers),
    port,
    env: {
      // The servers' own reconciliation settles payments left half done within the run.
      PAYMENTS_RECONCILE_AFTER_MINUTES: '0.25',
      PAYMENTS_RECONCILE_EVERY_MINUTES: '0.1',
      // Every simulated shopper signs up from this machine's one address (nginx overwrites
      // X-Forwarded-For): the per-address sign-up burst limit is for real networks, not this.
      SIGNUPS_PER_ADDRESS_PER_MINUTE: '100000',
      SIGNUPS_PER_ADDRESS_PER_HOUR: '1000000',
      LOG_LEVEL: 'error',
    },
    onLog: (i, text) => {
      for (const line of text.split('\n')) if (line.trim() && !/"level":"(info|debug)"/.test(line)) serverLog.push(`[server ${i}] ${line.slice(0, 300)}`);
    },
  });
  siteUrl = cluster.url;
  // A pool, so the fault that terminates every database connection cannot take the checker down too.
  const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  db.on('error', () => undefined);
  const stopOnSignal = () => void cluster.stop().then(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  let exitCode = 0;
  try {
    const dbName = new URL(cluster.databaseUrl).pathname.slice(1);
    const adminUrl = new URL(cluster.databaseUrl);
    adminUrl.pathname = '/postgres';
    console.log(`cluster up on ${cluster.url}; registering ${SHOPPERS} shoppers`);
    const accounts = await registerShoppers(SHOPPERS);
    const cat = await loadCatalogue(db);
    // Warm the route cache once, as a running store would be.
    for (const p of ['/', '/collection', ...cat.productIds.slice(0, 20).map((id) => `/product/${id}`)]) await fetch(siteUrl + p);
    const stockBefore = await stockSnapshot(db);
    const baseline = (await db.query('select coalesce(max(created_at), now()) as t, count(*)::int as n from orders')).rows[0];
    const paymentsBefore = (await db.query('select count(*)::int as n from payments')).rows[0].n as number;

    console.log(`shopping for ${DURATION_MS / 1000} s`);
    started = Date.now();
    const deadline = started + DURATION_MS;
    const faults = args.faults
      ? (async () => {
          await sleep(DURATION_MS * 0.2);
          await killOne(cluster);
          await sleep(Math.max(0, started + DURATION_MS * 0.45 - Date.now()));
          await cutDatabase(cluster, adminUrl.toString(), dbName);
          await sleep(Math.max(0, started + DURATION_MS * 0.7 - Date.now()));
          await terminateOne(cluster);
        })()
      : Promise.resolve();
    let stockNegative = false;
    const watcher = setInterval(() => {
      db.query('select count(*)::int as n from variants where stock < 0').then(
        (r) => {
          if (r.rows[0].n > 0) stockNegative = true;
        },
        () => undefined,
      );
    }, 1000);
    await Promise.all([...accounts.map((a, i) => shopperLoop(i, cat, a, deadline)), faults]);
    clearInterval(watcher);
    const elapsed = (Date.now() - started) / 1000;

    // Anything paid but not yet placed, refunded or mailed: the servers' reconciliation (every 6 s, for anything older than 15 s) finishes it.
    const settleDeadline = Date.now() + 45_000;
    let unsettled = 0;
    for (;;) {
      unsettled = (
        await db.query(
          `select (select count(*) from payments where status in (${states(PAY.paid, PAY.needs_refund)})) + (select count(*) from orders where confirmation_mailed_at is null) as n`,
        )
      ).rows[0].n;
      unsettled = Number(unsettled);
      if (unsettled === 0 || Date.now() > settleDeadline) break;
      await sleep(1000);
    }

    // ---- invariants
    const q = async (text: string, params: unknown[] = []) => (await db.query(text, params)).rows;
    const stockAfter = await stockSnapshot(db);
    const sold = new Map((await q('select variant_id, sum(quantity)::int as n from order_items oi join orders o on o.id = oi.order_id where o.created_at > $1 group by variant_id', [baseline.t])).map((r) => [Number(r.variant_id), Number(r.n)]));
    const stockProblems: string[] = [];
    for (const [id, start] of stockBefore) {
      const end = stockAfter.get(id)!;
      if (start - (sold.get(id) ?? 0) !== end) stockProblems.push(`variant ${id}: ${start} - ${sold.get(id) ?? 0} sold != ${end}`);
      if (end < 0) stockProblems.push(`variant ${id}: stock ${end}`);
    }
    const [pay] = await q(
      `select count(*) filter (where status = ${states(PAY.fulfilled)})::int as fulfilled,
              count(*) filter (where status = ${states(PAY.paid)})::int as paid_without_order,
              count(*) filter (where status = ${states(PAY.needs_refund)})::int as needs_refund,
              count(*) filter (where status in (${states(PAY.refunded, PAY.partially_refunded)}))::int as refunded,
              count(*) filter (where status in (${states(PAY.initialized, PAY.abandoned)}))::int as unpaid,
              count(*) filter (where status = ${states(PAY.failed)})::int as failed
         from payments`,
    );
    const [ord] = await q('select count(*)::int as orders, count(distinct payment_id)::int as payments from orders where created_at > $1', [baseline.t]);
    const [mismatch] = await q(
      `select count(*)::int as n from orders o join payments p on p.id = o.payment_id where p.status not in (${states(PAY.fulfilled, PAY.partially_refunded, PAY.refunded)})`,
    );
    const [refundedWithOrderMissing] = await q(
      `select count(*)::int as n from payments p where p.status = ${states(PAY.fulfilled)} and not exists (select 1 from orders o where o.payment_id = p.id)`,
    );
    const [noMail] = await q(
      `select count(*)::int as n from orders o where o.created_at > $1 and not exists (select 1 from mail_outbox m where m.subject = 'Your Maison Luxe order ' || o.tracking_number)`,
      [baseline.t],
    );
    const seenMissing = [...seen.ordersPlaced].filter(([, id]) => !id).length;
    const dbOrderIds = new Set((await q('select o.id, p.reference from orders o join payments p on p.id = o.payment_id')).map((r) => `${r.reference}:${r.id}`));
    const seenNotInDb = [...seen.ordersPlaced].filter(([ref, id]) => !dbOrderIds.has(`${ref}:${id}`)).length + seenMissing;
    const soldOutStates = await q(`select reference, status from payments where reference = any($1)`, [[...seen.soldOutAfterPaying]]);
    const soldOutNotRefunded = soldOutStates.filter((r) => ![PAY.needs_refund, PAY.refunded].includes(r.status)).length;

    const totalFailed = [...stats.values()].reduce((n, s) => n + s.failed, 0);
    const totalInFault = [...stats.values()].reduce((n, s) => n + s.failedInFault, 0);
    const invariants: { name: string; ok: boolean; detail: string }[] = [
      { name: 'zero failed requests (outside fault windows)', ok: totalFailed === 0, detail: `${totalFailed} failed${args.faults ? `, ${totalInFault} more inside fault windows (allowed)` : ''}` },
      {
        name: 'orders = successful payments (none lost, none doubled)',
        ok: pay.paid_without_order === 0 && ord.orders === ord.payments && ord.orders === pay.fulfilled + (await q(`select count(*)::int as n from payments p where p.status in (${states(PAY.refunded, PAY.partially_refunded)}) and exists (select 1 from orders o where o.payment_id = p.id)`))[0].n && mismatch.n === 0 && refundedWithOrderMissing.n === 0 && seenNotInDb === 0,
        detail: `${ord.orders} orders for ${ord.payments} payments; payments fulfilled ${pay.fulfilled}, paid without an order ${pay.paid_without_order}, sold out and refunded ${pay.refunded} (+${pay.needs_refund} queued), unpaid ${pay.unpaid}, declined ${pay.failed}; orders the shoppers saw but the database lacks: ${seenNotInDb}`,
      },
      { name: 'stock at start - units sold = stock at end, never negative', ok: stockProblems.length === 0 && !stockNegative, detail: stockProblems.length ? stockProblems.slice(0, 5).join('; ') : `${stockBefore.size} variants, ${[...sold.values()].reduce((a, b) => a + b, 0)} units sold${stockNegative ? '; NEGATIVE STOCK SEEN during the run' : ''}` },
      { name: 'every paid order has its confirmation mail', ok: noMail.n === 0, detail: `${noMail.n} orders without mail` },
      { name: 'sold out after paying -> refunded or queued', ok: soldOutNotRefunded === 0, detail: `${seen.soldOutAfterPaying.size} payments, ${soldOutNotRefunded} neither refunded nor queued` },
    ];
    if (args.faults) invariants.push({ name: 'faults behaved (health 503 while the database was gone, recovery, clean drain)', ok: problems.length === 0, detail: problems.join('; ') || faultLog.join(' | ') });

    const coherence = await priceChangeReachesEveryServer(cluster, cat.productIds[3] ?? cat.productIds[0]!);
    invariants.push({ name: `a set-price reaches all ${cluster.servers.length} servers within 1 s`, ok: coherence <= 1000, detail: `${coherence === Infinity ? 'not within 5 s' : `${coherence} ms`}` });

    // The money check (npm run money:check) on the run's database: every order's account adds up, credit and stock equal their ledgers.
    const moneyCheck = await run('npx', ['tsx', 'scripts/money-check.ts'], { env: { ...process.env, DATABASE_URL: cluster.databaseUrl, LOG_LEVEL: 'silent' } }).then(
      (r) => ({ ok: true, detail: r.stdout.trim() }),
      (err: { stdout?: string; stderr?: string; message: string }) => ({ ok: false, detail: (err.stderr || err.stdout || err.message).trim().split('\n').slice(0, 6).join(' | ') }),
    );
    invariants.push({ name: 'money check: every order\'s account adds up, store credit and stock equal their ledgers', ...moneyCheck });

    // ---- report
    const totalRequests = [...stats.values()].reduce((n, s) => n + s.latencies.length, 0);
    console.log(`\n${totalRequests} requests in ${elapsed.toFixed(1)} s: ${(totalRequests / elapsed).toFixed(1)} req/s; journeys: ${seen.journeys.anonymous} anonymous, ${seen.journeys.buying} orders placed, ${seen.journeys.soldOut} ended by sold out, ${seen.journeys.cut} cut by a failure; payments or mails left unsettled: ${unsettled}`);
    const rows = [...stats.entries()].map(([step, s]) => {
      const l = [...s.latencies].sort((a, b) => a - b);
      return { step, requests: l.length, ok: s.ok, expected: s.expected, failed: s.failed, failedInFault: s.failedInFault, p50: Math.round(pct(l, 50)), p95: Math.round(pct(l, 95)), p99: Math.round(pct(l, 99)) };
    });
    console.log('\n| step | requests | expected refusals | failed | failed in fault windows | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.step} | ${r.requests} | ${r.expected} | ${r.failed} | ${r.failedInFault} | ${r.p50} | ${r.p95} | ${r.p99} |`);
    if (failures.length) {
      // Those outside fault windows first: they are the ones that fail the run.
      const shown = [...failures.filter((f) => !f.inFault), ...failures.filter((f) => f.inFault)].slice(0, 15);
      console.log(`\nfailures (first 15 of ${failures.length}, outside fault windows first):`);
      for (const f of shown) console.log(`  ${(f.at / 1000).toFixed(1)} s ${f.inFault ? '[fault window] ' : ''}${f.step}: ${f.what}`);
    }
    console.log('\ninvariants:');
    for (const inv of invariants) console.log(`  ${inv.ok ? 'ok  ' : 'FAIL'} ${inv.name}: ${inv.detail}`);
    if (invariants.some((i) => !i.ok)) {
      exitCode = 1;
      if (serverLog.length) console.log(`\nserver errors (first 20 of ${serverLog.length}):\n${serverLog.slice(0, 20).join('\n')}`);
    }
    mkdirSync('.bench', { recursive: true });
    writeFileSync(
      '.bench/loadtest.json',
      JSON.stringify({ shoppers: SHOPPERS, durationS: elapsed, seed: SEED, servers: cluster.servers.length, faults: args.faults, requests: totalRequests, rps: totalRequests / elapsed, journeys: seen.journeys, steps: rows, invariants, faultLog, paymentsBefore, failures: failures.slice(0, 100) }, null, 2),
    );
  } catch (err) {
    console.error(err);
    exitCode = 1;
  } finally {
    await db.end().catch(() => undefined);
    await cluster.stop();
    mkdirSync('.bench', { recursive: true });
    writeFileSync('.bench/loadtest-servers.log', serverLog.join('\n') + '\n');
  }
  process.exit(exitCode);
}

await main();
