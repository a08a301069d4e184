import { sql } from 'drizzle-orm';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { createSearch } from '@/lib/server/catalogue/search';
import type { Logger } from '@/lib/server/infra/log';
import type { Db } from '../infra/db/client';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

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
 * enough, confirmation already mailed. Order history does not move stock (it is the past), so
 * the stock ledger still adds up; sales counts come from the orders.
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
