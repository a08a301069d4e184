import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/server/infra/db/client';
import { checkBooks } from '@/lib/server/books/books-check';

/**
 * The money check (`npm run money:check`, ADR 0021): reads the whole database and proves that every
 * order's account adds up, that nothing gave back more than it took, that every store-credit balance
 * is its ledger, every variant's stock is its ledger, and the books' VAT adds up. Reads only; each difference is named.
 */

export interface MoneyCheckResult {
  ok: boolean;
  problems: string[];
  counts: { orders: number; orderMoneyRows: number; creditBalances: number; variants: number; refundsUnpaid: number; refundsUnpaidMinor: number };
}

type Row = Record<string, unknown>;

async function rows(db: Db, query: SQL): Promise<Row[]> {
  const res = await db.execute(query);
  return ((res as { rows?: Row[] }).rows ?? (res as unknown as Row[])) as Row[];
}

const n = (v: unknown) => Number(v ?? 0);

export async function checkMoney(db: Db, opts: { limit?: number } = {}): Promise<MoneyCheckResult> {
  const limit = opts.limit ?? 50;
  const problems: string[] = [];

  // Each order: its totals as recorded, and its account's rows by kind.
  const orders = await rows(
    db,
    sql`
    with m as (
      select order_id,
        coalesce(sum(amount_minor) filter (where kind = 'charged'), 0) as charged,
        coalesce(sum(amount_minor) filter (where kind = 'collected'), 0) as collected,
        coalesce(sum(amount_minor) filter (where kind = 'credit_used'), 0) as credit_used,
        coalesce(sum(amount_minor) filter (where kind = 'difference_paid'), 0) as difference_paid,
        coalesce(-sum(amount_minor) filter (where kind not in ('charged', 'collected', 'credit_used', 'difference_paid')), 0) as given_back
      from order_money group by order_id)
    select o.id, o.tracking_number, o.currency, o.subtotal_minor, o.discount_minor, o.delivery_fee_minor, o.gift_wrap_minor, o.total_minor,
      o.store_credit_minor, o.due_on_delivery_minor, o.collection_outcome, o.collected_minor, p.amount_minor as payment_minor,
      coalesce(m.charged, 0) as charged, coalesce(m.collected, 0) as collected, coalesce(m.credit_used, 0) as credit_used,
      coalesce(m.difference_paid, 0) as difference_paid, coalesce(m.given_back, 0) as given_back
    from orders o join payments p on p.id = o.payment_id left join m on m.order_id = o.id
    where o.total_minor <> o.subtotal_minor - o.discount_minor + o.delivery_fee_minor + o.gift_wrap_minor
       or coalesce(m.charged, 0) <> p.amount_minor
       or coalesce(m.credit_used, 0) <> o.store_credit_minor
       or coalesce(m.collected, 0) <> case when o.collection_outcome = 'paid' then coalesce(o.collected_minor, 0) else 0 end
       or coalesce(m.charged, 0) + coalesce(m.credit_used, 0)
          + case when o.collection_outcome = 'paid' then coalesce(m.collected, 0) else o.due_on_delivery_minor end <> o.total_minor
       or coalesce(m.given_back, 0) > coalesce(m.charged, 0) + coalesce(m.collected, 0) + coalesce(m.credit_used, 0) + coalesce(m.difference_paid, 0)
    order by o.created_at limit ${limit}`,
  );
  for (const o of orders) {
    const order = `order ${String(o.tracking_number)} (${String(o.id)}, ${String(o.currency)})`;
    const total = n(o.total_minor);
    const taken = n(o.charged) + n(o.collected) + n(o.credit_used) + n(o.difference_paid);
    if (total !== n(o.subtotal_minor) - n(o.discount_minor) + n(o.delivery_fee_minor) + n(o.gift_wrap_minor)) {
      problems.push(
        `${order}: total ${total} is not subtotal ${n(o.subtotal_minor)} - discount ${n(o.discount_minor)} + delivery ${n(o.delivery_fee_minor)} + gift wrap ${n(o.gift_wrap_minor)}`,
      );
    }
    if (n(o.charged) !== n(o.payment_minor)) problems.push(`${order}: charged ${n(o.charged)} in its account, its payment charged ${n(o.payment_minor)}`);
    if (n(o.credit_used) !== n(o.store_credit_minor)) problems.push(`${order}: store credit used ${n(o.credit_used)} in its account, the order says ${n(o.store_credit_minor)}`);
    const collectedAsRecorded = o.collection_outcome === 'paid' ? n(o.collected_minor) : 0;
    if (n(o.collected) !== collectedAsRecorded) problems.push(`${order}: collected ${n(o.collected)} in its account, the order says ${collectedAsRecorded}`);
    const paidOrDue = n(o.charged) + n(o.credit_used) + (o.collection_outcome === 'paid' ? n(o.collected) : n(o.due_on_delivery_minor));
    if (paidOrDue !== total) problems.push(`${order}: charged + credit used + collected (or due) = ${paidOrDue}, total ${total}`);
    if (n(o.given_back) > taken) problems.push(`${order}: gave back ${n(o.given_back)}, took ${taken}`);
  }

  // Each payment whose money came into an order: its account's refunds are the payment's: refunded,
  // a claim in progress, and refunds owed to it not paid yet (one whose claim is in progress counted once).
  for (const p of await rows(
    db,
    sql`
    with r as (
      select payment_id, min(order_id::text) as order_id,
        coalesce(-sum(amount_minor) filter (where kind in ('refunded', 'refund_released')), 0) as refunded
      from order_money where payment_id is not null
      group by payment_id having bool_or(kind in ('charged', 'difference_paid'))),
    o as (
      select w.payment_id, sum(w.amount_minor) as owed from owed_refunds w join payments p on p.id = w.payment_id
      where w.destination = 'payment' and w.status <> 'paid' and p.refund_pending_key is distinct from w.id::text
      group by w.payment_id)
    select p.reference, r.order_id, r.refunded, p.refunded_minor + coalesce(p.refund_pending_minor, 0) + coalesce(o.owed, 0) as payment_refunded
    from r join payments p on p.id = r.payment_id left join o on o.payment_id = r.payment_id
    where r.refunded <> p.refunded_minor + coalesce(p.refund_pending_minor, 0) + coalesce(o.owed, 0) limit ${limit}`,
  )) {
    problems.push(`payment ${String(p.reference)} of order ${String(p.order_id)}: refunded ${n(p.payment_refunded)}, its order's account says ${n(p.refunded)}`);
  }

  // Store credit an order gave back (returns, exchanges, a cancellation) is the store credit ledger's.
  for (const c of await rows(
    db,
    sql`
    with a as (
      select order_id, return_id, -sum(amount_minor) as credited from order_money where kind = 'credited' group by order_id, return_id),
    l as (
      select order_id, return_id, sum(delta_minor) as credited from store_credit_entries
      where kind in ('return', 'cancellation') and order_id is not null group by order_id, return_id)
    select coalesce(a.order_id, l.order_id) as order_id, coalesce(a.return_id, l.return_id) as return_id, coalesce(a.credited, 0) as account, coalesce(l.credited, 0) as ledger
    from a full join l on l.order_id = a.order_id and l.return_id is not distinct from a.return_id
    where coalesce(a.credited, 0) <> coalesce(l.credited, 0) limit ${limit}`,
  )) {
    problems.push(`order ${String(c.order_id)}${c.return_id ? ` (return ${String(c.return_id)})` : ''}: credited ${n(c.account)} in its account, ${n(c.ledger)} in the store credit ledger`);
  }

  for (const b of await rows(
    db,
    sql`
    select b.user_id, b.currency, b.balance_minor as balance, coalesce(sum(e.delta_minor), 0) as ledger
    from store_credit_balances b left join store_credit_entries e on e.user_id = b.user_id and e.currency = b.currency
    group by b.user_id, b.currency, b.balance_minor having b.balance_minor <> coalesce(sum(e.delta_minor), 0) limit ${limit}`,
  )) {
    problems.push(`store credit of account ${String(b.user_id)} in ${String(b.currency)}: balance ${n(b.balance)}, ledger ${n(b.ledger)}`);
  }

  for (const v of await rows(
    db,
    sql`
    select v.id, v.stock, coalesce(sum(l.delta), 0) as ledger
    from variants v left join stock_ledger l on l.variant_id = v.id
    group by v.id, v.stock having v.stock <> coalesce(sum(l.delta), 0) limit ${limit}`,
  )) {
    problems.push(`variant ${n(v.id)}: stock ${n(v.stock)}, ledger ${n(v.ledger)}`);
  }

  // The books: VAT lines, invoices and credit notes add up (books/books-check.ts).
  problems.push(...(await checkBooks(db, limit)));

  const [c] = await rows(
    db,
    sql`select (select count(*) from orders) as orders, (select count(*) from order_money) as money,
      (select count(*) from store_credit_balances) as balances, (select count(*) from variants) as variants,
      (select count(*) from owed_refunds where status <> 'paid') as unpaid, (select coalesce(sum(amount_minor), 0) from owed_refunds where status <> 'paid') as unpaid_minor`,
  );
  return {
    ok: problems.length === 0,
    problems,
    counts: { orders: n(c?.orders), orderMoneyRows: n(c?.money), creditBalances: n(c?.balances), variants: n(c?.variants), refundsUnpaid: n(c?.unpaid), refundsUnpaidMinor: n(c?.unpaid_minor) },
  };
}
