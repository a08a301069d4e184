import { sql, type SQL } from 'drizzle-orm';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { createSearch } from '@/lib/server/catalogue/search';
import type { Logger } from '@/lib/server/infra/log';
import type { Db } from '../infra/db/client';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { rateForDay, taxNumberLabel, type TaxSettings } from '@/lib/domain/tax-settings';
import { taxSettingsOf } from '@/lib/server/books/settings';

/** The password of every shopper the large store makes (one hash, shared: hashing 200,000 would take hours). */
export const SCALE_SHOPPER_PASSWORD = 'Scale-Shopper-2026!';

export interface ScaleOptions {
  products: number;
  /** Default: 4 per product (200,000 at 50,000 products). */
  customers?: number;
  /** Default: 20 per product (1,000,000 at 50,000 products), spread over two years. */
  orders?: number;
}

const rowsOf = <T>(res: unknown): T[] => ((res as { rows?: T[] }).rows ?? (res as T[]));
/** The one number a `select count(*)::int as n` answers. */
const countOf = async (db: Db, query: ReturnType<typeof sql>): Promise<number> => Number(rowsOf<{ n: number }>(await db.execute(query))[0]?.n ?? 0);

/**
 * Grows the seeded demo store into a believable large one, set-based so it runs in
 * minutes: every new product copies a seeded one of the same category (its variants, prices in both
 * markets, pictures and stock, opened in the ledger), with its own unique name; customers and
 * two years of paid orders follow, each order with its payment row, delivered when it is old
 * enough, confirmation already mailed, and, in a registered market, its VAT lines and its tax
 * invoice (numbered on from the market's series, already handed to e-invoicing), as placing it
 * would have made them. Order history does not move stock (it is the past), so the stock ledger
 * still adds up; sales counts come from the orders.
 */
export async function growStore(db: Db, opts: ScaleOptions, log?: Logger): Promise<Record<string, number>> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const step = async (name: string, run: () => Promise<unknown>) => {
    const t = Date.now();
    await run();
    timings[name] = Date.now() - t;
    log?.info('scale seed step', { step: name, ms: timings[name] });
  };
  const have = await countOf(db, sql`select count(*)::int as n from products`);
  const add = Math.max(0, opts.products - Number(have));
  const customers = opts.customers ?? opts.products * 4;
  const orderCount = opts.orders ?? opts.products * 20;
  const passwordHash = await hashPassword(SCALE_SHOPPER_PASSWORD);
  const books = await booksOf(db, 730);

  await step('products', async () => {
    await db.execute(sql`drop table if exists scale_templates`);
    await db.execute(sql`create temp table scale_templates as select (row_number() over (order by id) - 1)::int as k, id, category_id, name, description from products`);
    const t = await countOf(db, sql`select count(*)::int as n from scale_templates`);
    await db.execute(sql`
      insert into products (name, slug, description, category_id, active, created_at)
      select t.name || ' ' || (array['Atelier','Heritage','Riviera','Sahel','Lagoon','Karoo','Savanna','Harmattan','Ikoyi','Sandton','Lekki','Stellenbosch'])[1 + (g % 12)] || ' ' || to_char(g, 'FM000000'),
             'scale-' || g, t.description, t.category_id, true, now() - ((g % 730) || ' days')::interval
      from generate_series(1, ${add}::int) g join scale_templates t on t.k = g % ${Number(t)}::int`);
    await db.execute(sql`drop table if exists scale_grown`);
    await db.execute(sql`
      create temp table scale_grown as
      select p.id, t.id as tpl_id from products p
      join scale_templates t on t.k = (substring(p.slug from 7)::int % ${Number(t)}::int)
      where p.slug like 'scale-%'`);
  });
  await step('variants', async () => {
    await db.execute(sql`insert into variants (product_id, color_id, size_id, stock) select g.id, v.color_id, v.size_id, v.stock from scale_grown g join variants v on v.product_id = g.tpl_id`);
    await db.execute(sql`
      insert into variant_prices (variant_id, market, price_minor)
      select nv.id, vp.market, vp.price_minor from scale_grown g
      join variants nv on nv.product_id = g.id
      join variants tv on tv.product_id = g.tpl_id and tv.color_id is not distinct from nv.color_id and tv.size_id is not distinct from nv.size_id
      join variant_prices vp on vp.variant_id = tv.id`);
    await db.execute(sql`
      insert into stock_ledger (variant_id, delta, kind, reason)
      select v.id, v.stock, 'opening', 'Opening balance' from scale_grown g join variants v on v.product_id = g.id`);
    await db.execute(sql`
      insert into product_images (product_id, position, media_hash, alt, color_id)
      select g.id, pi.position, pi.media_hash, pi.alt, pi.color_id from scale_grown g join product_images pi on pi.product_id = g.tpl_id`);
  });
  await step('customers', async () => {
    await db.execute(sql`
      insert into users (first_name, last_name, email, password_hash, phone_number, country, verified_at, created_at)
      select (array['Adaeze','Kemi','Tunde','Ngozi','Chidi','Zanele','Thabo','Lerato','Sipho','Amara','Femi','Bisi','Naledi','Kagiso','Ifeoma','Musa'])[1 + g % 16],
             (array['Okafor','Bello','Adeyemi','Nwosu','Dlamini','Mokoena','Khumalo','Eze','Balogun','Ndlovu','Okonkwo','Mahlangu'])[1 + (g / 16) % 12],
             'shopper' || g || '@scale.maisonluxe.test', ${passwordHash},
             case when g % 4 = 0 then '+2782' || lpad((g % 10000000)::text, 7, '0') else '+234803' || lpad((g % 10000000)::text, 7, '0') end,
             case when g % 4 = 0 then 'south_africa' else 'nigeria' end,
             now(), now() - ((g % 730) || ' days')::interval
      from generate_series(1, ${customers}::int) g`);
  });
  await step('orders', async () => {
    // Variants sold in both markets, numbered; shoppers numbered: each order picks one of each.
    await db.execute(sql`drop table if exists scale_variants`);
    await db.execute(sql`
      create temp table scale_variants as
      select (row_number() over (order by v.id) - 1)::int as k, v.id as variant_id, v.product_id, p.name, c.name as color, s.name as size,
             ng.price_minor as ng_minor, za.price_minor as za_minor,
             (select '/media/' || pi.media_hash || '/320.webp' from product_images pi where pi.product_id = p.id order by pi.position limit 1) as image
      from variants v join products p on p.id = v.product_id
      join variant_prices ng on ng.variant_id = v.id and ng.market = 'NG'
      join variant_prices za on za.variant_id = v.id and za.market = 'ZA'
      left join colors c on c.id = v.color_id left join sizes s on s.id = v.size_id`);
    await db.execute(sql`drop table if exists scale_shoppers`);
    await db.execute(sql`create temp table scale_shoppers as select (row_number() over (order by id) - 1)::int as k, id, email, first_name, last_name, country from users where email like '%@scale.maisonluxe.test'`);
    const v = await countOf(db, sql`select count(*)::int as n from scale_variants`);
    const c = await countOf(db, sql`select count(*)::int as n from scale_shoppers`);
    // In batches, so PGlite (one process, in memory) keeps up too.
    const batch = 100_000;
    for (let from = 1; from <= orderCount; from += batch) {
      const to = Math.min(orderCount, from + batch - 1);
      await db.execute(sql`drop table if exists scale_batch`);
      await db.execute(sql`
        create temp table scale_batch as
        select g, gen_random_uuid() as order_id, gen_random_uuid() as payment_id, s.id as user_id, s.email, s.first_name || ' ' || s.last_name as name, s.country,
               sv.variant_id, sv.product_id, sv.name as product_name, coalesce(sv.image, '') as image, sv.color, sv.size,
               1 + (g % 3 = 0)::int as quantity,
               case when s.country = 'south_africa' then sv.za_minor else sv.ng_minor end as unit_minor,
               case when s.country = 'south_africa' then 'ZAR' else 'NGN' end as currency,
               case when s.country = 'south_africa' then 12000 else 500000 end as fee_minor,
               now() - ((${orderCount}::int - g)::float / ${orderCount}::int * 730 || ' days')::interval as at
        from generate_series(${from}::int, ${to}::int) g
        join scale_shoppers s on s.k = (g::bigint * 7919) % ${Number(c)}::int
        join scale_variants sv on sv.k = (g::bigint * 104729) % ${Number(v)}::int`);
      await db.execute(sql`
        insert into payments (id, reference, user_id, cart_id, provider, purpose, amount_minor, currency, email, status, snapshot, channel, created_at, updated_at)
        select payment_id, 'SCALE-' || g, user_id, gen_random_uuid(), 'simulated', 'checkout', unit_minor * quantity + fee_minor, currency, email, ${PAYMENT_STATUSES.fulfilled}, '{"seeded": true}'::jsonb, 'card', at, at
        from scale_batch`);
      await db.execute(sql`
        insert into orders (id, tracking_number, user_id, payment_id, status, delivery_option, delivery_speed, subtotal_minor, delivery_fee_minor, total_minor, currency,
                            delivery_address, payment_method, delivered_at, confirmation_mailed_at, created_at, updated_at)
        select order_id, 'ML-S' || to_char(g, 'FM0000000'), user_id, payment_id,
               case when at < now() - interval '10 days' then 'delivered' when at < now() - interval '3 days' then 'processed' else 'pending' end,
               'delivery', 'economy', unit_minor * quantity, fee_minor, unit_minor * quantity + fee_minor, currency,
               jsonb_build_object('id', 'scale', 'name', name, 'country', country,
                 'state', case when country = 'south_africa' then 'Gauteng' else 'Lagos' end,
                 'city', case when country = 'south_africa' then 'Johannesburg' else 'Ikeja' end,
                 'address', (g % 90 + 1) || ' Allen Avenue', 'zipCode', case when country = 'south_africa' then '2196' else '100001' end),
               'card', case when at < now() - interval '10 days' then at + interval '4 days' end, at, at, at
        from scale_batch`);
      await db.execute(sql`
        insert into order_items (order_id, product_id, variant_id, product_name, product_image, color, size, quantity, unit_price_minor, line_total_minor)
        select order_id, product_id, variant_id, product_name, image, color, size, quantity, unit_minor, unit_minor * quantity from scale_batch`);
      for (const market of books) await invoiceBatch(db, market);
      log?.info('scale seed orders', { upTo: to });
    }
  });
  await step('sales counts', async () => {
    await db.execute(sql`
      update products p set sales_count = s.units
      from (select product_id, sum(quantity)::int as units from order_items group by product_id) s
      where s.product_id = p.id`);
  });
  await step('search', () => createSearch({ db }).refresh(null));
  await step('analyze', () => db.execute(sql`analyze`));
  timings.total = Date.now() - started;
  return timings;
}

/** A registered market's VAT as the scale orders need it: one rate over the whole history, and whether delivery is taxed. */
interface MarketBooks {
  market: MarketCode;
  currency: string;
  timeZone: string;
  rate: number;
  deliveryRate: number;
  settings: TaxSettings;
}

/**
 * The registered markets, each with the one rate its settings give every day of the last `days`
 * (a rate that changed in that time is refused: the orders would need the rate of their own day).
 */
async function booksOf(db: Db, days: number): Promise<MarketBooks[]> {
  const out: MarketBooks[] = [];
  for (const market of Object.keys(MARKETS) as MarketCode[]) {
    const settings = await taxSettingsOf(db, market);
    if (!settings?.registered) continue;
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const rate = rateForDay(settings, day(0));
    if (rateForDay(settings, day(days)) !== rate) throw new Error(`scale seed: the ${market} VAT rate changed within the orders' ${days} days`);
    out.push({ market, currency: MARKETS[market].currency, timeZone: MARKETS[market].timeZone, rate, deliveryRate: settings.deliveryTaxed ? rate : 0, settings });
  }
  return out;
}

/**
 * The VAT lines and the sale invoice of every order in `scale_batch` of this market, set-based, by
 * the rules `vatLines` applies at placement: VAT taken from the gross half up at each rate, shared
 * over that rate's lines by the largest remainder (a tie to the earlier line). Numbers continue the
 * market's series of each year without a gap, in order of placement, and the counter moves on.
 */
async function invoiceBatch(db: Db, b: MarketBooks): Promise<void> {
  const seller = { name: b.settings.legalName, addressLines: b.settings.address.split('\n').map((l) => l.trim()).filter(Boolean), taxNumberLabel: taxNumberLabel(b.market), taxNumber: b.settings.taxNumber };
  // VAT in a gross amount at a rate, half up (vatInGross); nothing at 0.
  const vatIn = (gross: SQL, basisPoints: number) => sql`((2 * ${gross} * ${basisPoints}::int + ${10000 + basisPoints}::int) / ${2 * (10000 + basisPoints)}::int)`;
  const shared = b.deliveryRate === b.rate;
  // Delivery at the goods' rate: one VAT for both lines, the item's share by weight and the one
  // unit the floors leave to the larger remainder; the delivery gets the rest. Otherwise each its own.
  const vatColumns = shared
    ? sql`vat * item / (item + fee) + case when vat - vat * item / (item + fee) - vat * fee / (item + fee) > 0
                                            and (vat * item) % (item + fee) >= (vat * fee) % (item + fee) then 1 else 0 end as item_vat`
    : sql`${vatIn(sql`item`, b.rate)} as item_vat, ${vatIn(sql`fee`, b.deliveryRate)} as fee_vat`;
  await db.execute(sql`drop table if exists scale_vat`);
  await db.execute(sql`
    create temp table scale_vat as
    with gross as (
      select order_id, g, at, name, country, quantity, product_name, color, size,
             (unit_minor * quantity)::bigint as item, fee_minor::bigint as fee,
             extract(year from at at time zone ${b.timeZone})::int as year
      from scale_batch where currency = ${b.currency}
    ), split as (
      select *, ${shared ? vatIn(sql`(item + fee)`, b.rate) : sql`null::bigint`} as vat from gross
    ), lines as (
      select *, ${vatColumns} from split
    )
    select order_id, g, at, year, name, country, quantity, item, fee,
           product_name || case when coalesce(color, size) is null then '' else ' (' || concat_ws(', ', color, size) || ')' end as description,
           item_vat, ${shared ? sql`vat - item_vat` : sql`fee_vat`} as fee_vat
    from lines`);
  await db.execute(sql`
    insert into order_vat_lines (order_id, kind, order_item_id, description, quantity, gross_minor, net_minor, vat_minor, rate_basis_points)
    select v.order_id, 'item', i.id, v.description, v.quantity, v.item, v.item - v.item_vat, v.item_vat, ${b.rate}::int from scale_vat v join order_items i on i.order_id = v.order_id
    union all
    select v.order_id, 'delivery', null, 'Delivery', 1, v.fee, v.fee - v.fee_vat, v.fee_vat, ${b.deliveryRate}::int from scale_vat v where v.fee > 0`);
  await db.execute(sql`
    insert into tax_documents (number, market, kind, order_id, source, form, currency, net_minor, vat_minor, gross_minor, seller, buyer, lines, by_rate, notice, issued_at,
                               e_invoicing_status, e_invoicing_attempts, e_invoicing_next_at, created_at, updated_at)
    select ${b.market} || '-' || v.year || '-' || lpad((coalesce(c.last, 0) + row_number() over (partition by v.year order by v.at, v.g))::text, 6, '0'),
           ${b.market}, 'invoice', v.order_id, 'order',
           case when ${b.market} = 'ZA' and v.item + v.fee <= 500000 then 'abridged' else 'full' end,
           ${b.currency}, v.item + v.fee - v.item_vat - v.fee_vat, v.item_vat + v.fee_vat, v.item + v.fee,
           ${JSON.stringify(seller)}::jsonb,
           jsonb_build_object('name', v.name, 'addressLines', jsonb_build_array((v.g % 90 + 1) || ' Allen Avenue',
             case when v.country = 'south_africa' then 'Johannesburg, Gauteng' else 'Ikeja, Lagos' end, case when v.country = 'south_africa' then '2196' else '100001' end)),
           jsonb_build_array(
             jsonb_build_object('description', v.description, 'quantity', v.quantity, 'unitGrossMinor', round(v.item::numeric / v.quantity), 'netMinor', v.item - v.item_vat,
                                'vatMinor', v.item_vat, 'grossMinor', v.item, 'vatRateBasisPoints', ${b.rate}::int),
             jsonb_build_object('description', 'Delivery', 'quantity', 1, 'unitGrossMinor', v.fee, 'netMinor', v.fee - v.fee_vat, 'vatMinor', v.fee_vat, 'grossMinor', v.fee,
                                'vatRateBasisPoints', ${b.deliveryRate}::int)),
           ${
             shared
               ? sql`jsonb_build_array(jsonb_build_object('basisPoints', ${b.rate}::int, 'netMinor', v.item + v.fee - v.item_vat - v.fee_vat, 'vatMinor', v.item_vat + v.fee_vat, 'grossMinor', v.item + v.fee))`
               : sql`jsonb_build_array(jsonb_build_object('basisPoints', ${b.rate}::int, 'netMinor', v.item - v.item_vat, 'vatMinor', v.item_vat, 'grossMinor', v.item),
                                       jsonb_build_object('basisPoints', ${b.deliveryRate}::int, 'netMinor', v.fee - v.fee_vat, 'vatMinor', v.fee_vat, 'grossMinor', v.fee))`
           },
           ${b.settings.notice}, v.at, 'handed', 1, v.at, v.at, v.at
    from scale_vat v
    left join tax_document_counters c on c.market = ${b.market} and c.kind = 'invoice' and c.year = v.year`);
  await db.execute(sql`
    insert into tax_document_counters (market, kind, year, last)
    select ${b.market}, 'invoice', year, count(*) from scale_vat group by year
    on conflict (market, kind, year) do update set last = tax_document_counters.last + excluded.last`);
}
