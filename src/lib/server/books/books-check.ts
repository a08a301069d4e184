import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/server/infra/db/client';

/**
 * The books' part of the money check (`npm run money:check`): every order's VAT lines add up to its
 * total; every order's sale invoice is its VAT lines, and each document's net and VAT make its gross;
 * no invoice is credited beyond what it carried, in net or in VAT; and an order's credit notes never
 * give back more than its account did. Reads only; each difference is named.
 */

type Row = Record<string, unknown>;

async function rows(db: Db, query: SQL): Promise<Row[]> {
  const res = await db.execute(query);
  return ((res as { rows?: Row[] }).rows ?? (res as unknown as Row[])) as Row[];
}

const n = (v: unknown) => Number(v ?? 0);

export async function checkBooks(db: Db, limit: number): Promise<string[]> {
  const problems: string[] = [];

  for (const o of await rows(
    db,
    sql`
    with l as (select order_id, sum(gross_minor) as gross, sum(net_minor) as net, sum(vat_minor) as vat from order_vat_lines group by order_id)
    select o.tracking_number, o.total_minor, l.gross, l.net, l.vat from orders o join l on l.order_id = o.id
    where l.gross <> o.total_minor or l.net + l.vat <> l.gross limit ${limit}`,
  )) {
    problems.push(`order ${String(o.tracking_number)}: VAT lines gross ${n(o.gross)} (net ${n(o.net)} + VAT ${n(o.vat)}), total ${n(o.total_minor)}`);
  }

  for (const d of await rows(
    db,
    sql`
    with l as (select order_id, sum(gross_minor) as gross, sum(vat_minor) as vat from order_vat_lines group by order_id)
    select d.number, d.gross_minor, d.vat_minor, l.gross, l.vat from tax_documents d join l on l.order_id = d.order_id
    where d.kind = 'invoice' and d.source = 'order' and (d.gross_minor <> l.gross or d.vat_minor <> l.vat) limit ${limit}`,
  )) {
    problems.push(`invoice ${String(d.number)}: gross ${n(d.gross_minor)} VAT ${n(d.vat_minor)}, its order's VAT lines ${n(d.gross)} and ${n(d.vat)}`);
  }

  for (const d of await rows(
    db,
    sql`
    with c as (select reduces_id, sum(net_minor) as net, sum(vat_minor) as vat, sum(gross_minor) as gross from tax_documents where kind = 'credit-note' group by reduces_id)
    select i.number, i.net_minor, i.vat_minor, i.gross_minor, c.net, c.vat, c.gross from tax_documents i join c on c.reduces_id = i.id
    where c.net > i.net_minor or c.vat > i.vat_minor or c.gross > i.gross_minor limit ${limit}`,
  )) {
    problems.push(`invoice ${String(d.number)}: credited net ${n(d.net)} VAT ${n(d.vat)}, it carried net ${n(d.net_minor)} VAT ${n(d.vat_minor)}`);
  }

  for (const o of await rows(
    db,
    sql`
    with c as (select order_id, sum(gross_minor) as credited from tax_documents where kind = 'credit-note' group by order_id),
    m as (select order_id, -sum(amount_minor) filter (where kind in ('refunded', 'credited', 'transferred')) as back from order_money group by order_id)
    select o.tracking_number, c.credited, coalesce(m.back, 0) as back from c join orders o on o.id = c.order_id left join m on m.order_id = c.order_id
    where c.credited > coalesce(m.back, 0) limit ${limit}`,
  )) {
    problems.push(`order ${String(o.tracking_number)}: credit notes of ${n(o.credited)}, its account gave back ${n(o.back)}`);
  }
  return problems;
}
