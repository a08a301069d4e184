/**
 * `npm run seo:check`: reads the store as Google and Meta read it and holds it to their documented
 * rules (scripts/seo/rules.ts, each with its source).
 *
 * - Every product page in every market (a sample when the store has more than 1,000 products,
 *   `--sample N` to choose how many): its ProductGroup, each variant's Product and Offer, the
 *   shipping details and return policy; a product not sold in a market must answer 404 there with
 *   no offer. One or two variant URLs per page are opened to see that they show the offer's price.
 * - The home page's OnlineStore.
 * - Both markets' Google and Meta feeds, every item, and each walked page's variants against them:
 *   same SKUs, prices, availability and links.
 *
 * Prints the count of errors and warnings per rule; exits 1 on any error. Starts the built store on
 * a fresh demo database itself (like `npm run budget`); `--url http://host:port` checks a running
 * store instead, `--database-url postgres://…` starts the built store on that database.
 */
import { MARKET_CODES, MARKETS, type MarketCode } from '../src/lib/domain/markets';
import { RULES, SCHEMA_AVAILABILITY, SCHEMA_CONDITION, SCHEMA_RETURN_CATEGORY, SCHEMA_SIZE_SYSTEMS, type RuleId } from './seo/rules';
import { startServer, type RunningServer } from '../tests/support/server';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const WALK_ALL_UP_TO = 1000;
const CONCURRENCY = 4;

type Json = Record<string, unknown>;
interface PageOffer {
  price: string;
  currency: string;
  availability: string;
  url: string;
}
interface FeedRow {
  id: string;
  group: string;
  price: string;
  availability: string;
  link: string;
}

const counts = new Map<RuleId, { errors: number; warnings: number; example?: string }>();
let checked = 0;
function report(rule: RuleId, ok: boolean, where: string): boolean {
  checked++;
  if (ok) return true;
  const c = counts.get(rule) ?? { errors: 0, warnings: 0 };
  if (RULES[rule].level === 'error') c.errors++;
  else c.warnings++;
  c.example ??= where;
  counts.set(rule, c);
  return false;
}

async function pool<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) await run(items[next++]!);
  }));
}

function jsonLdOf(html: string): Json[] {
  const out: Json[] = [];
  for (const m of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)) {
    const data = JSON.parse(m[1]!) as Json | Json[];
    for (const node of Array.isArray(data) ? data : [data]) out.push(...(Array.isArray(node['@graph']) ? (node['@graph'] as Json[]) : [node]));
  }
  return out;
}

/** A copy of a string read out of a feed: a slice would keep the whole chunk it came from (hundreds of MB at 50,000 products) alive. */
const own = (s: string) => Buffer.from(s, 'utf8').toString('utf8');
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const PRICE = /^\d+(\.\d{1,2})?$/;

/** The checks of one variant's Offer. Returns what the feeds are compared with. */
function checkOffer(offer: Json, where: string, market: MarketCode, origin: string, productId: number, variant: Json): PageOffer | null {
  const price = String(offer.price ?? '');
  report('offer.price', PRICE.test(price) && Number(price) > 0, where);
  report('offer.priceCurrency', offer.priceCurrency === MARKETS[market].currency, where);
  report('offer.availability', SCHEMA_AVAILABILITY.has(String(offer.availability)), where);
  report('offer.itemCondition', SCHEMA_CONDITION.has(String(offer.itemCondition)), where);
  const url = str(offer.url);
  let urlOk = false;
  if (url) {
    const u = new URL(url);
    urlOk =
      u.origin === origin &&
      u.pathname === `/product/${productId}` &&
      (u.searchParams.get('market') ?? 'NG') === market &&
      (variant.color === undefined || u.searchParams.get('color') === variant.color) &&
      (variant.size === undefined || u.searchParams.get('size') === sizeText(variant.size));
  }
  report('offer.url', urlOk, where);
  const shipping = list(offer.shippingDetails as Json | Json[] | undefined);
  if (report('offer.shippingDetails', shipping.length > 0, where)) {
    for (const s of shipping) {
      const rate = s.shippingRate as Json | undefined;
      report('shipping.rate', !!rate && PRICE.test(String(rate.value)) && rate.currency === MARKETS[market].currency, where);
      report('shipping.destination', list((s.shippingDestination as Json | undefined)?.addressCountry as string | string[]).includes(market), where);
      const time = s.deliveryTime as Json | undefined;
      const span = (q: unknown) => {
        const v = q as Json | undefined;
        return !!v && Number.isInteger(v.minValue) && Number.isInteger(v.maxValue) && (v.minValue as number) <= (v.maxValue as number) && v.unitCode === 'DAY';
      };
      report('shipping.deliveryTime', !!time && span(time.handlingTime) && span(time.transitTime), where);
    }
  }
  const policy = offer.hasMerchantReturnPolicy as Json | undefined;
  if (report('offer.hasMerchantReturnPolicy', !!policy, where) && policy) checkReturnPolicy(policy, market, where);
  return url ? { price, currency: String(offer.priceCurrency), availability: String(offer.availability), url } : null;
}

function checkReturnPolicy(policy: Json, market: MarketCode, where: string): void {
  report('returns.country', list(policy.applicableCountry as string | string[]).includes(market), where);
  report('returns.category', SCHEMA_RETURN_CATEGORY.has(String(policy.returnPolicyCategory)), where);
  if (policy.returnPolicyCategory === 'https://schema.org/MerchantReturnFiniteReturnWindow') report('returns.days', Number.isInteger(policy.merchantReturnDays) && (policy.merchantReturnDays as number) > 0, where);
  report('returns.method', list(policy.returnMethod as string | string[]).length > 0, where);
  report('returns.fees', !!str(policy.returnFees), where);
}

/** A size as the URL names it: the text, or a SizeSpecification's system prefix and name ("EU 38"). */
function sizeText(size: unknown): string | undefined {
  if (typeof size === 'string') return size;
  const spec = size as Json | undefined;
  if (!spec || typeof spec.name !== 'string') return undefined;
  const system = String(spec.sizeSystem ?? '').replace('https://schema.org/WearableSizeSystem', '');
  return system === 'Europe' ? `EU ${spec.name}` : system === 'UK' ? `UK ${spec.name}` : spec.name;
}

async function main(): Promise<void> {
  const given = arg('url');
  const databaseUrl = arg('database-url');
  let server: RunningServer | undefined;
  const started = Date.now();
  if (!given) server = await startServer(databaseUrl ? 'pg' : 'pglite', { LOG_LEVEL: 'error' }, databaseUrl ? { databaseUrl } : {});
  const base = (given ?? server!.baseUrl).replace(/\/$/, '');
  try {
    const get = (path: string, init?: RequestInit) => fetch(base + path, init);
    const origin = new URL(base).origin;

    // The products and the markets each is sold in, from the sitemap's hreflang alternates.
    // The sitemap is an index: its parts are read in turn.
    const index = await (await get('/sitemap.xml')).text();
    let sitemap = '';
    for (const [, loc] of index.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)) sitemap += await (await get(new URL(loc!.replace(/&amp;/g, '&')).pathname)).text();
    const products: { id: number; markets: MarketCode[] }[] = [];
    for (const m of sitemap.matchAll(/<url><loc>[^<]*\/product\/(\d+)<\/loc>(.*?)<\/url>/g)) {
      const markets = MARKET_CODES.filter((code) => m[2]!.includes(`hreflang="${MARKETS[code].locale}"`));
      products.push({ id: Number(m[1]), markets });
    }
    const sampleSize = Number(arg('sample') ?? (products.length <= WALK_ALL_UP_TO ? products.length : 200));
    const step = Math.max(1, products.length / sampleSize);
    const walked = products.length <= sampleSize ? products : Array.from({ length: sampleSize }, (_, i) => products[Math.floor(i * step)]!);
    console.log(`${products.length} products in the sitemap; walking ${walked.length} in ${MARKET_CODES.length} markets`);

    // The home page.
    const home = jsonLdOf(await (await get('/')).text());
    const store = home.find((n) => ['OnlineStore', 'Organization', 'Store', 'OnlineBusiness'].includes(String(n['@type'])));
    report('home.organization', !!store && !!str(store.name) && !!str(store.url) && !!str(store.logo), '/');
    report('home.contactPoint', list(store?.contactPoint as Json[] | undefined).length > 0, '/');
    const storePolicies = list(store?.hasMerchantReturnPolicy as Json[] | undefined);
    report('home.returnPolicy', MARKET_CODES.every((m) => storePolicies.some((p) => list(p.applicableCountry as string[]).includes(m))), '/');
    for (const p of storePolicies) checkReturnPolicy(p, list(p.applicableCountry as MarketCode[])[0] ?? 'NG', '/');
    const services = list(store?.hasShippingService as Json[] | undefined);
    report('home.shippingService', MARKET_CODES.every((m) => services.some((s) => list(s.shippingConditions as Json[]).some((c) => (c.shippingDestination as Json | undefined)?.addressCountry === m))), '/');

    // Product pages.
    const offers = new Map<string, Map<string, PageOffer>>(); // `${market}:${productId}` -> sku -> offer
    const pricesToOpen: { where: string; url: string; price: string }[] = [];
    const jobs = walked.flatMap((p) => MARKET_CODES.map((market) => ({ ...p, market })));
    await pool(jobs, async ({ id, markets, market }) => {
      const path = `/product/${id}${market === 'NG' ? '' : `?market=${market}`}`;
      const res = await get(path);
      const html = await res.text();
      const nodes = jsonLdOf(html);
      const groups = nodes.filter((n) => n['@type'] === 'ProductGroup');
      if (!markets.includes(market)) {
        report('page.not-sold', res.status === 404 && !html.includes('"@type":"Offer"'), path);
        return;
      }
      const group = groups[0];
      if (!report('page.product-group', res.status === 200 && groups.length === 1, path) || !group) return;
      report('group.name', !!str(group.name), path);
      report('group.productGroupID', !!str(group.productGroupID), path);
      report('group.brand', !!str((group.brand as Json | undefined)?.name), path);
      report('group.description', !!str(group.description), path);
      const variants = list(group.hasVariant as Json[] | undefined);
      report('group.hasVariant', variants.length > 0, path);
      const variesBy = list(group.variesBy as string[] | undefined).map((v) => v.replace('https://schema.org/', ''));
      const differing = (['color', 'size'] as const).filter((k) => new Set(variants.map((v) => JSON.stringify(v[k] ?? null))).size > 1);
      report('group.variesBy', differing.every((k) => variesBy.includes(k)), path);
      const bySku = new Map<string, PageOffer>();
      let opened = 0;
      for (const v of variants) {
        const where = `${path} ${String(v.sku ?? v.name)}`;
        report('variant.name', !!str(v.name), where);
        report('variant.image', list(v.image as string[] | undefined).length > 0 || list(group.image as string[] | undefined).length > 0, where);
        report('variant.varies-by', variesBy.every((k) => v[k] !== undefined), where);
        if (v.size !== undefined && typeof v.size !== 'string') report('variant.size', SCHEMA_SIZE_SYSTEMS.has(String((v.size as Json).sizeSystem)) && !!str((v.size as Json).name), where);
        const sku = str(v.sku);
        report('variant.sku', !!sku && !bySku.has(sku), where);
        const offerList = list(v.offers as Json | Json[] | undefined);
        if (!report('variant.offers', offerList.length === 1, where)) continue;
        const offer = checkOffer(offerList[0]!, where, market, origin, id, v);
        if (offer && sku) {
          bySku.set(sku, offer);
          // The first offer, and a sold-out one: their URLs must show them.
          if (opened === 0 || (opened === 1 && !offer.availability.endsWith('InStock'))) {
            pricesToOpen.push({ where, url: offer.url, price: offer.price });
            opened++;
          }
        }
      }
      offers.set(`${market}:${id}`, bySku);
    });
    await pool(pricesToOpen, async ({ where, url, price }) => {
      const html = await (await fetch(url)).text();
      report('offer.page-price', new RegExp(`class="product-price"[^>]*data-price="${Number(price)}"`).test(html), where);
    });

    // The feeds.
    const feedTimes: string[] = [];
    for (const market of MARKET_CODES) {
      for (const format of ['google', 'meta'] as const) {
        const path = `/feeds/${format}-${market}.${format === 'google' ? 'xml' : 'csv'}`;
        const t = Date.now();
        const rows = format === 'google' ? await readGoogleFeed(base + path, market, origin) : await readMetaFeed(base + path, market);
        feedTimes.push(`${path}: ${rows.length} items in ${Date.now() - t} ms`);
        const groups = new Map<string, FeedRow[]>();
        for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
        for (const [group, items] of groups) {
          const page = offers.get(`${market}:${group}`);
          if (!page) continue;
          const where = `${path} item_group_id ${group}`;
          report('feed.covers-page', items.length === page.size && items.every((i) => page.has(i.id)), where);
          for (const item of items) {
            const offer = page.get(item.id);
            if (!offer) continue;
            const inStock = offer.availability === 'https://schema.org/InStock';
            report('feed.matches-page', item.price === `${offer.price} ${offer.currency}` && item.link === offer.url && (item.availability === 'in_stock' || item.availability === 'in stock') === inStock, `${path} ${item.id}`);
          }
        }
        for (const key of offers.keys()) {
          const [m, group] = key.split(':');
          if (m === market && !groups.has(group!)) report('feed.covers-page', false, `${path} has no item of product ${group}`);
        }
      }
    }

    // The report.
    const rows = (Object.keys(RULES) as RuleId[]).map((id) => ({ id, ...RULES[id], ...(counts.get(id) ?? { errors: 0, warnings: 0 }) }));
    const width = Math.max(...rows.map((r) => r.id.length));
    console.log(`\n${'rule'.padEnd(width)}  level    errors  warnings  source`);
    for (const r of rows) console.log(`${r.id.padEnd(width)}  ${r.level.padEnd(7)}  ${String(r.errors).padStart(6)}  ${String(r.warnings).padStart(8)}  ${r.source}${r.example ? `\n${' '.repeat(width + 2)}first: ${r.example}` : ''}`);
    for (const line of feedTimes) console.log(line);
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    const warnings = rows.reduce((n, r) => n + r.warnings, 0);
    console.log(`\n${checked} checks: ${errors} errors, ${warnings} warnings (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    if (errors > 0) process.exitCode = 1;
  } finally {
    await server?.stop();
  }
}

const unescapeXml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** Streams a Merchant Center RSS feed, checking every item; returns what the pages are compared with. */
async function readGoogleFeed(url: string, market: MarketCode, origin: string): Promise<FeedRow[]> {
  const res = await fetch(url);
  const rows: FeedRow[] = [];
  const ids = new Set<string>();
  let buffer = '';
  const decoder = new TextDecoder();
  const item = (text: string) => {
    const fields = new Map<string, string[]>();
    for (const m of text.matchAll(/<((?:g:)?[a-z_]+)>([^<]*)<\/\1>/g)) fields.set(m[1]!, [...(fields.get(m[1]!) ?? []), unescapeXml(m[2]!)]);
    const one = (k: string) => fields.get(k)?.[0] ?? '';
    const id = one('g:id');
    const where = `${url.slice(origin.length)} ${id || '(no id)'}`;
    report('gfeed.id', !!id && id.length <= 50 && !ids.has(id), where);
    ids.add(own(id));
    report('gfeed.title', !!one('title') && one('title').length <= 150, where);
    report('gfeed.description', !!one('description') && one('description').length <= 5000, where);
    report('gfeed.link', one('link').startsWith(`${origin}/`), where);
    report('gfeed.image_link', !!one('g:image_link'), where);
    report('gfeed.availability', ['in_stock', 'out_of_stock', 'preorder', 'backorder'].includes(one('g:availability')), where);
    report('gfeed.price', new RegExp(`^\\d+(\\.\\d{1,2})? ${MARKETS[market].currency}$`).test(one('g:price')), where);
    report('gfeed.brand', !!one('g:brand'), where);
    report('gfeed.identifiers', !!one('g:gtin') || !!one('g:mpn') || one('g:identifier_exists') === 'no', where);
    report('gfeed.condition', ['new', 'refurbished', 'used'].includes(one('g:condition')), where);
    report('gfeed.apparel', !!one('g:color') && ['male', 'female', 'unisex'].includes(one('g:gender')) && ['newborn', 'infant', 'toddler', 'kids', 'adult'].includes(one('g:age_group')), where);
    // Sizes are named in the link (?size=) wherever the variant has one.
    report('gfeed.size', !new URL(one('link') || origin).searchParams.has('size') || !!one('g:size'), where);
    report('gfeed.google_product_category', /^\d+$/.test(one('g:google_product_category')), where);
    report('gfeed.shipping', (fields.get('g:country') ?? []).includes(market) && (fields.get('g:service') ?? []).length > 0, where);
    rows.push({ id: own(id), group: own(one('g:item_group_id')), price: own(one('g:price')), availability: own(one('g:availability')), link: own(one('link')) });
  };
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let from = 0;
    let end: number;
    while ((end = buffer.indexOf('</item>', from)) >= 0) {
      item(buffer.slice(buffer.indexOf('<item>', from), end));
      from = end + 7;
    }
    buffer = buffer.slice(from);
  }
  // Variants of a product share its group; a product of one variant carries it too.
  for (const r of rows) report('gfeed.item_group_id', !!r.group, r.id);
  return rows;
}

/** One CSV record (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks). */
function csvCells(record: string): string[] {
  const cells: string[] = [];
  for (const m of record.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
    const raw = m[1]!;
    cells.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (m[2] === '') break;
  }
  return cells;
}

/** Streams a Meta catalogue CSV, checking every row. */
async function readMetaFeed(url: string, market: MarketCode): Promise<FeedRow[]> {
  const res = await fetch(url);
  const decoder = new TextDecoder();
  const rows: FeedRow[] = [];
  let header: string[] | null = null;
  let rest = '';
  let open: string | null = null; // a record whose quoted field goes on past a line break
  const record = (text: string) => {
    const cells = csvCells(text);
    if (!header) return void (header = cells);
    const r = Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
    const where = `${url.replace(/^https?:\/\/[^/]+/, '')} ${r.id || '(no id)'}`;
    report('mfeed.required', ['id', 'title', 'description', 'availability', 'condition', 'price', 'link', 'image_link', 'brand'].every((k) => !!r[k]), where);
    report('mfeed.availability', ['in stock', 'out of stock', 'preorder', 'available for order', 'discontinued'].includes(r.availability!), where);
    report('mfeed.price', new RegExp(`^\\d+(\\.\\d{1,2})? ${MARKETS[market].currency}$`).test(r.price!), where);
    rows.push({ id: own(r.id!), group: own(r.item_group_id!), price: own(r.price!), availability: own(r.availability!), link: own(r.link!) });
  };
  const lines = (text: string, final: boolean) => {
    const parts = (rest + text).split('\n');
    rest = final ? '' : parts.pop()!;
    for (const line of parts) {
      if (line === '' && open === null) continue;
      const text = open === null ? line : `${open}\n${line}`;
      // An odd number of quotes: the record is not finished on this line.
      if ((text.split('"').length - 1) % 2 === 1) open = text;
      else {
        open = null;
        record(text.replace(/\r$/, ''));
      }
    }
  };
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) lines(decoder.decode(chunk, { stream: true }), false);
  lines(decoder.decode(), true);
  return rows;
}

await main();
