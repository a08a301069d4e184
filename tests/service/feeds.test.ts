import { gunzipSync } from 'node:zlib';
import { and, asc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variantSku } from '@/lib/domain/merchant';
import { createFeedService, type FeedService } from '@/lib/server/catalogue/feeds';
import { feedCopies, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { PageCacheStore } from '@/lib/server/storefront/page-cache';
import { DRIVERS, servicesFor } from '../support/services';

const SITE = 'https://shop.example';

const fetchFeed = (feeds: FeedService, headers: Record<string, string> = {}) => feeds.respond(new Request(`${SITE}/feeds/google-NG.xml`, { headers }), 'google', 'NG');

/** The g:price of an item of a Google feed's text. */
function priceIn(text: string, sku: string): string | undefined {
  const item = text.split('<item>').find((i) => i.includes(`<g:id>${sku}</g:id>`));
  return item && /<g:price>([^<]*)<\/g:price>/.exec(item)?.[1];
}

/** The kept copy's text, ETag and Last-Modified, as a catalogue crawler (gzip) fetches it. */
async function kept(feeds: FeedService): Promise<{ text: string; etag: string; lastModified: string }> {
  const res = await fetchFeed(feeds, { 'accept-encoding': 'gzip' });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('gzip');
  return { text: gunzipSync(Buffer.from(await res.arrayBuffer())).toString(), etag: res.headers.get('etag')!, lastModified: res.headers.get('last-modified')! };
}

for (const driver of DRIVERS) {
  describe(`shopping feeds kept and brought up to date in the background on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    /** A variant priced in Nigeria, in the first segment of the feed. */
    let variant: { id: number; productId: number; sku: string; priceMinor: number };
    const pages = new PageCacheStore();
    let feeds: FeedService;
    /** Every app server a test starts: one still refreshing in the background may publish a copy later. */
    const started: FeedService[] = [];
    const startFeeds = (opts: Omit<Parameters<typeof createFeedService>[0], 'db' | 'site'>) => {
      const service = createFeedService({ db: ctx.database.db, site: SITE, ...opts });
      started.push(service);
      return service;
    };
    const allSettled = () => Promise.all([feeds, ...started].map((s) => s.settled()));

    const setPrice = async (priceMinor: number) => {
      await ctx.database.db.update(variantPrices).set({ priceMinor }).where(and(eq(variantPrices.variantId, variant.id), eq(variantPrices.market, 'NG')));
      variant.priceMinor = priceMinor;
    };
    const priceText = () => `${(variant.priceMinor / 100).toFixed(2)} NGN`;
    const savedCopy = async () => (await ctx.database.db.select({ etag: feedCopies.etag, builtAt: feedCopies.builtAt }).from(feedCopies).where(eq(feedCopies.feed, 'google:NG')))[0];
    const savedEtag = async () => (await savedCopy())?.etag;

    beforeAll(async () => {
      ctx = await servicesFor(driver);
      const [row] = await ctx.database.db
        .select({ id: variants.id, productId: variants.productId, sku: variants.sku, priceMinor: variantPrices.priceMinor })
        .from(variants)
        .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, 'NG')))
        .where(gt(variants.stock, 0))
        .orderBy(asc(variants.productId), asc(variants.id))
        .limit(1);
      variant = { ...row!, sku: variantSku(row!.productId, row!) };
      // A generous wait, so a busy machine cannot make the refresh miss it.
      feeds = createFeedService({ db: ctx.database.db, site: SITE, pages, freshWaitMs: 10_000 });
    });
    afterAll(async () => ctx?.close());

    it('a store with no copy streams its first read; the copy is then kept, in the database too, and answers conditional requests', async () => {
      expect(await savedEtag()).toBeUndefined();
      const first = await fetchFeed(feeds);
      expect(first.status).toBe(200);
      const text = await first.text();
      expect(priceIn(text, variant.sku)).toBe(priceText());
      await feeds.settled();

      const copy = await kept(feeds);
      expect(copy.text).toBe(text);
      expect(await savedEtag()).toBe(copy.etag);
      expect((await fetchFeed(feeds, { 'if-none-match': copy.etag })).status).toBe(304);
      expect((await fetchFeed(feeds, { 'if-modified-since': copy.lastModified })).status).toBe(304);
      const before = new Date(Date.parse(copy.lastModified) - 1000).toUTCString();
      expect((await fetchFeed(feeds, { 'if-modified-since': before })).status).toBe(200);
      // An ETag of another copy wins over a date.
      expect((await fetchFeed(feeds, { 'if-none-match': '"other"', 'if-modified-since': copy.lastModified })).status).toBe(200);
    });

    it('a price change is read in the background: a request meanwhile gets the last copy, the next one the new price', async () => {
      const patient = startFeeds({ pages, freshWaitMs: 0 });
      const old = await kept(patient); // from the database
      await patient.settled();
      expect((await kept(patient)).etag).toBe(old.etag);

      await setPrice(variant.priceMinor + 12_300);
      pages.invalidateTags([`product:${variant.productId}`]);
      const during = await kept(patient);
      expect(during.etag).toBe(old.etag);
      expect(priceIn(during.text, variant.sku)).not.toBe(priceText());

      await patient.settled();
      const after = await kept(patient);
      expect(after.etag).not.toBe(old.etag);
      expect(priceIn(after.text, variant.sku)).toBe(priceText());
      expect((await fetchFeed(patient, { 'if-none-match': old.etag })).status).toBe(200);
      expect(await savedEtag()).toBe(after.etag);
      await feeds.settled();
    });

    it('a request waits for a refresh under way (within its bound), so a price change reaches the next fetch of the feed at once', async () => {
      await feeds.settled();
      await setPrice(variant.priceMinor + 4_500);
      pages.invalidateTags([`product:${variant.productId}`]);
      expect(priceIn((await kept(feeds)).text, variant.sku)).toBe(priceText());
      await feeds.settled();
    });

    it('an app server that starts on a current copy streams it from the database and reads nothing of the feed again', async () => {
      await allSettled();
      const saved = await kept(feeds);
      const reads: unknown[] = [];
      const fresh = startFeeds({ pages: new PageCacheStore(), freshWaitMs: 0, onRead: (feed, what) => reads.push({ feed, what }) });
      const first = await kept(fresh);
      expect(first.etag).toBe(saved.etag);
      expect(first.text).toBe(saved.text);
      expect((await fetchFeed(fresh, { 'if-none-match': saved.etag })).status).toBe(304);
      // Unpacked for a client that takes no gzip, from the same segments.
      expect(await (await fetchFeed(fresh)).text()).toBe(saved.text);
      await fresh.settled();
      expect(reads).toEqual([]);
      expect((await kept(fresh)).etag).toBe(saved.etag);

      // A change while it listens still reads its segment alone.
      await setPrice(variant.priceMinor + 300);
      pages.invalidateTags([`product:${variant.productId}`]);
      await feeds.settled();
      const listening = startFeeds({ pages, freshWaitMs: 0, onRead: (feed, what) => reads.push({ feed, what }) });
      expect((await kept(listening)).etag).not.toBe(saved.etag);
      await listening.settled();
      expect(reads).toEqual([]);
      await setPrice(variant.priceMinor + 200);
      pages.invalidateTags([`product:${variant.productId}`]);
      await listening.settled();
      await feeds.settled();
      expect(reads).toEqual([{ feed: 'google:NG', what: { segments: 1 } }]);
      expect(priceIn((await kept(listening)).text, variant.sku)).toBe(priceText());
    });

    it('an app server that starts answers from the database copy at once, and reads again behind it the segment that changed meanwhile', async () => {
      // No server of the earlier tests is still publishing (the copy's date would move under us).
      await allSettled();
      // The database's copy, not this server's: another server may have published the same text a second later.
      const saved = (await savedCopy())!;
      // A change made while no app server listened: no invalidation reaches anyone.
      await setPrice(variant.priceMinor + 700);
      const reads: unknown[] = [];
      const fresh = startFeeds({ pages: new PageCacheStore(), freshWaitMs: 0, onRead: (feed, what) => reads.push({ feed, what }) });
      const first = await kept(fresh);
      expect(first.etag).toBe(saved.etag);
      expect(first.lastModified).toBe(saved.builtAt.toUTCString());
      await fresh.settled();
      expect(reads).toEqual([{ feed: 'google:NG', what: { segments: 1 } }]);
      const behind = await kept(fresh);
      expect(priceIn(behind.text, variant.sku)).toBe(priceText());
      expect(await savedEtag()).toBe(behind.etag);
    });
  });
}
