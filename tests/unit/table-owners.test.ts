import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One owner per table: every insert, update and delete of a table in src/lib/server is
 * in the one module that owns it, so a rule about a table (an exactly-once guarantee, a ledger, a
 * role) lives in one place. Other modules call the owner. The seed is aside.
 *
 * Modules are named by their path under src/lib/server, without the extension.
 */
const SERVER = 'src/lib/server';

/** Each table (by its SQL name) and the module that writes it. */
const TABLE_OWNERS: Record<string, string> = {
  addresses: 'accounts/addresses',
  audit_log: 'backoffice/audit',
  back_in_stock_requests: 'catalogue/back-in-stock',
  backup_runs: 'infra/backups',
  cart_items: 'cart/cart',
  carts: 'cart/cart',
  categories: 'catalogue/admin/categories',
  colors: 'infra/db/seed',
  customer_views: 'privacy/views',
  data_requests: 'privacy/requests',
  favourites: 'accounts/favourites',
  feed_copies: 'catalogue/feeds/kept-copies',
  feed_pieces: 'catalogue/feeds/kept-copies',
  help_messages: 'aftersales/help',
  help_requests: 'aftersales/help',
  mail_outbox: 'infra/mail',
  market_settings: 'checkout/on-delivery',
  verified_phones: 'accounts/phone-verification',
  media: 'infra/media',
  newsletter_consent_events: 'newsletter/newsletter',
  newsletter_subscriptions: 'newsletter/newsletter',
  one_time_codes: 'accounts/codes',
  // The dashboard's rollup of orders, kept by migration 0016's triggers: nothing writes it but them.
  order_daily_totals: 'orders/order-placing',
  order_events: 'orders/order-status',
  order_money: 'orders/order-money',
  order_items: 'orders/order-placing',
  owed_refunds: 'orders/owed-refunds',
  orders: 'orders/order-placing',
  payments: 'payments/rows',
  // Units sold per day and product, kept by migration 0017's triggers on order lines and orders: nothing writes it but them.
  product_daily_sales: 'orders/order-placing',
  product_images: 'catalogue/admin/images',
  // A rollup of variant_prices the database keeps (migration 0015's triggers): nothing writes it but them.
  product_from_prices: 'catalogue/admin/prices',
  products: 'catalogue/admin/products',
  promotion_codes: 'promotions/rows',
  promotion_redemptions: 'promotions/rows',
  promotions: 'promotions/rows',
  rate_limits: 'infra/rate-limit',
  return_items: 'aftersales/returns/rows',
  returns: 'aftersales/returns/rows',
  search_log: 'catalogue/search',
  search_terms: 'catalogue/search',
  sessions: 'accounts/sessions',
  shipment_events: 'delivery/shipments',
  shipments: 'delivery/shipments',
  sizes: 'infra/db/seed',
  staff_devices: 'backoffice/staff',
  stock_ledger: 'catalogue/stock',
  store_credit_balances: 'aftersales/store-credit',
  store_credit_entries: 'aftersales/store-credit',
  text_outbox: 'notifications/outbox',
  whatsapp_outbox: 'notifications/outbox',
  users: 'accounts/accounts',
  variant_prices: 'catalogue/admin/prices',
  variants: 'catalogue/admin/variants',
};

/**
 * Facts kept on another module's rows, each with its one writer: stock on hand and units sold
 * belong to the stock module (a sale takes stock, writes the ledger and counts the sale in one
 * call), an account's role to the staff module (grant and revoke). `table.column`, as in the schema.
 */
const COLUMN_OWNERS: Record<string, string> = {
  'variants.stock': 'catalogue/stock',
  'products.salesCount': 'catalogue/stock',
  'users.role': 'backoffice/staff',
  'users.phoneVerifiedNumber': 'accounts/phone-verification',
  // An order's status and its dates move only through order-status's moveLocked (under the order's row lock).
  'orders.status': 'orders/order-status',
  'orders.deliveredAt': 'orders/order-status',
  'orders.cancelledAt': 'orders/order-status',
  'orders.updatedAt': 'orders/order-status',
  // The confirmation mail's mark (reconciliation mails the orders without it).
  'orders.confirmationMailedAt': 'orders/order-mails',
  // Units refunded by line, taken and given back by the line refunds' bookkeeping.
  'orderItems.refundedQuantity': 'orders/line-refunds',
  // Settling a pay-on-delivery order at the door, and the shopper's refusals (counted, and lifted by staff).
  'orders.collectionOutcome': 'orders/collection',
  'orders.collectionMethod': 'orders/collection',
  'orders.collectedMinor': 'orders/collection',
  'orders.collectedAt': 'orders/collection',
  'users.refusedDeliveries': 'orders/collection',
};

/**
 * Code that is not a module of the running store: the seeds fill an empty database (or grow it, for
 * measuring); migrations are SQL; the dump loads a whole backup, every table as it was, into an
 * empty store (restore, db:move).
 */
const ASIDE = /^infra\/db\/(seed|seed-art|seed-scale|migrations|dump)(\/|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The schema's tables: the identifier the code uses -> the SQL name. */
function schemaTables(): Map<string, string> {
  const schema = readFileSync(join(SERVER, 'infra/db/schema.ts'), 'utf8');
  return new Map([...schema.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map((m) => [m[1]!, m[2]!]));
}

/** The top-level keys of the object literal starting at `text[0]` ('{'); '*' for a spread or anything that is not a literal. */
function literalKeys(text: string): string[] {
  if (!text.startsWith('{')) return ['*'];
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    if (depth === 0 && !quote) current += c;
  }
  parts.push(current);
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (p.startsWith('...') ? '*' : (/^(\w+)\s*(:|$)/.exec(p)?.[1] ?? '*')));
}

interface Write {
  module: string;
  table: string;
  /** The column written apart from its row (an update's key), or '*' for the row. */
  column: string;
  line: number;
}

/** Every write of a schema table through drizzle in src/lib/server, outside the seed. */
function writes(): { writes: Write[]; rawSql: string[] } {
  const tables = schemaTables();
  const found: Write[] = [];
  const rawSql: string[] = [];
  for (const path of sources(SERVER)) {
    const module = relative(SERVER, path).replace(/\\/g, '/').replace(/\.ts$/, '');
    if (ASIDE.test(module)) continue;
    const text = readFileSync(path, 'utf8');
    const lineOf = (index: number) => text.slice(0, index).split('\n').length;
    for (const m of text.matchAll(/\.(insert|update|delete)\(\s*(\w+)\s*\)/g)) {
      const table = tables.get(m[2]!);
      if (!table) continue;
      let columns = ['*'];
      if (m[1] === 'update') {
        const set = text.indexOf('.set(', m.index! + m[0].length);
        columns = set < 0 ? ['*'] : literalKeys(text.slice(set + '.set('.length).trimStart());
      }
      for (const column of columns) found.push({ module, table, column, line: lineOf(m.index!) });
    }
    // A write in SQL text would not be seen above: writes go through drizzle's builders.
    for (const m of text.matchAll(/sql(\.raw)?\s*\(?\s*`[^`]*\b(insert\s+into|delete\s+from|update\s+\S+\s+set)\b/gi)) {
      rawSql.push(`${module}:${lineOf(m.index!)}`);
    }
  }
  return { writes: found, rawSql };
}

const ownerOf = (jsTable: string, table: string, column: string) => COLUMN_OWNERS[`${jsTable}.${column}`] ?? TABLE_OWNERS[table];

describe('one owner per table', () => {
  it('every table has an owner, and every write of it is in that module (or, for a column kept apart, in its owner)', () => {
    const tables = schemaTables();
    const sqlToJs = new Map([...tables].map(([js, sqlName]) => [sqlName, js]));
    expect([...tables.values()].filter((t) => !TABLE_OWNERS[t]), 'tables without an owner in TABLE_OWNERS').toEqual([]);
    const { writes: found, rawSql } = writes();
    expect(found.length).toBeGreaterThan(50);
    const strays = found
      .filter((w) => ownerOf(sqlToJs.get(w.table)!, w.table, w.column) !== w.module)
      .map((w) => {
        const apart = `${sqlToJs.get(w.table)}.${w.column}` in COLUMN_OWNERS;
        return `${apart ? `${w.table}.${w.column}` : w.table} written by ${w.module}.ts:${w.line} (owner: ${ownerOf(sqlToJs.get(w.table)!, w.table, w.column)})`;
      });
    expect([...new Set(strays)]).toEqual([]);
    expect(rawSql, 'writes in SQL text (use drizzle, so the owner is checked)').toEqual([]);
  });

  it('a column kept apart is written only by its owner, even in a row update of the table owner', () => {
    const { writes: found } = writes();
    const tables = schemaTables();
    for (const [key, owner] of Object.entries(COLUMN_OWNERS)) {
      const [jsTable, column] = key.split('.') as [string, string];
      const table = tables.get(jsTable)!;
      expect(table, `${jsTable} is a table`).toBeDefined();
      const writers = new Set(found.filter((w) => w.table === table && w.column === column).map((w) => w.module));
      expect([...writers], key).toEqual([owner]);
    }
  });

  it("search's document is built only by the SQL function ml_refresh_search, and only the search module calls it", () => {
    const callers = sources('src').filter((f) => !/migrations/.test(f) && readFileSync(f, 'utf8').includes('ml_refresh_search'));
    expect(callers.map((f) => f.replace(/\\/g, '/'))).toEqual(['src/lib/server/catalogue/search.ts']);
    const { writes: found } = writes();
    expect(found.filter((w) => w.column === 'searchDocument')).toEqual([]);
  });

  it('sees a second writer (the check itself)', () => {
    expect(literalKeys('{ stock: sql`${variants.stock} - 1` }).where(x)')).toEqual(['stock']);
    expect(literalKeys('{ role, updatedAt: new Date() })')).toEqual(['role', 'updatedAt']);
    expect(literalKeys("{ ...input, passwordHash: await hash('a,b') })")).toEqual(['*', 'passwordHash']);
    expect(literalKeys('patch)')).toEqual(['*']);
    expect(ownerOf('products', 'products', 'salesCount')).toBe('catalogue/stock');
    expect(ownerOf('products', 'products', 'name')).toBe('catalogue/admin/products');
    expect(ownerOf('users', 'users', '*')).toBe('accounts/accounts');
  });
});
