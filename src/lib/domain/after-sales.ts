/**
 * After the sale, defined once: the return window, what a return request offers (reasons,
 * what the shopper wants, how the goods come back), a return's statuses and the staff actions that
 * move it, how a return's money goes back, store credit's ledger kinds, and help-request topics.
 * Labels are the words the pages, mail and API show. No I/O.
 */
import { paidForUnits } from './promotions';

export const RETURN_WINDOW_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/** When a delivered order's return window closes: 3 days after its delivery. */
export function returnWindowClosesAt(deliveredAt: Date): Date {
  return new Date(deliveredAt.getTime() + RETURN_WINDOW_DAYS * DAY_MS);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function calendarDayIn(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(instant);
}

/** The instant of noon on a calendar day in a time zone (both markets' zones keep one offset all year). */
function noonOn(day: string, timeZone: string): Date {
  const utcNoon = new Date(`${day}T12:00:00Z`);
  const wall = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
    .formatToParts(utcNoon)
    .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
  const offsetMs = Date.UTC(+wall.year!, +wall.month! - 1, +wall.day!, +wall.hour!, +wall.minute!) - utcNoon.getTime();
  return new Date(utcNoon.getTime() - offsetMs);
}

/**
 * When an order staff record as "Delivered on" `day` (a day of the market's calendar) was
 * delivered: today is now (the window runs from the moment it is recorded), an earlier day is noon
 * on that day, never before the order was placed. Null for a day that is not a real date, is
 * after today or before the day of the order, all in the market's time zone.
 */
export function deliveredAtOn(day: string, { now, orderedAt, timeZone }: { now: Date; orderedAt: Date; timeZone: string }): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) return null;
  const today = calendarDayIn(now, timeZone);
  if (day > today || day < calendarDayIn(orderedAt, timeZone)) return null;
  const at = day === today ? now : noonOn(day, timeZone);
  return at < orderedAt ? orderedAt : at;
}

/** A delivered order may be returned or exchanged until its window closes. */
export function returnWindowOpen(order: { status: string; deliveredAt: Date | null }, now: Date): boolean {
  return order.status === 'delivered' && order.deliveredAt !== null && now < returnWindowClosesAt(order.deliveredAt);
}

export const RETURN_REASONS = ['too_small', 'too_big', 'not_as_described', 'damaged', 'changed_mind'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
/** "Reason" on the request form, in the order the form lists them. */
export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  too_small: 'Too small',
  too_big: 'Too big',
  not_as_described: 'Not as described',
  damaged: 'Damaged or faulty',
  changed_mind: 'Changed my mind',
};

/** What the shopper wants. */
export const RETURN_RESOLUTIONS = ['exchange', 'refund', 'credit'] as const;
export type ReturnResolution = (typeof RETURN_RESOLUTIONS)[number];
export const RETURN_RESOLUTION_LABELS: Record<ReturnResolution, string> = {
  exchange: 'Exchange for another size or colour',
  refund: 'Refund to my payment',
  credit: 'Store credit',
};

/** How the goods come back. */
export const RETURN_METHODS = ['drop_off', 'collection'] as const;
export type ReturnMethod = (typeof RETURN_METHODS)[number];
export const RETURN_METHOD_LABELS: Record<ReturnMethod, string> = {
  drop_off: 'Drop off at our pickup point',
  collection: 'Collect from my delivery address',
};

/**
 * requested → approved (or rejected, with a reason) → received → refunded, credited or exchanged
 * (shipped). A dearer exchange is approved only once its difference is paid.
 */
export const RETURN_STATUSES = ['requested', 'approved', 'received', 'refunded', 'credited', 'exchanged', 'rejected'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: 'Requested',
  approved: 'Approved',
  received: 'Received',
  refunded: 'Refunded',
  credited: 'Credited',
  exchanged: 'Exchanged',
  rejected: 'Rejected',
};
/** A return still holding its lines' units (counted against what may still be returned). */
export const LIVE_RETURN_STATUSES = RETURN_STATUSES.filter((s) => s !== 'rejected');
/** A return whose money went back (to the payment, as credit or by transfer): its units are paid back. */
export const MONEY_BACK_RETURN_STATUSES: readonly ReturnStatus[] = ['refunded', 'credited'];
export const FINAL_RETURN_STATUSES: readonly ReturnStatus[] = ['refunded', 'credited', 'exchanged', 'rejected'];

/** What staff do to a return (`POST /api/v1/admin/returns/{id}` `{ action }`). */
export const RETURN_ACTIONS = ['approve', 'reject', 'receive', 'refund', 'credit', 'ship'] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];

/** The status each action moves a return from, and to. */
export const RETURN_ACTION_MOVES: Record<ReturnAction, { from: readonly ReturnStatus[]; to: ReturnStatus }> = {
  approve: { from: ['requested'], to: 'approved' },
  reject: { from: ['requested', 'approved'], to: 'rejected' },
  receive: { from: ['approved'], to: 'received' },
  refund: { from: ['received'], to: 'refunded' },
  credit: { from: ['received'], to: 'credited' },
  ship: { from: ['received'], to: 'exchanged' },
};

/** Whether `action` applies to a return in `status` wanting `resolution` (ship only an exchange; refund or credit not an exchange). */
export function returnActionAllowed(action: ReturnAction, status: ReturnStatus, resolution: ReturnResolution): boolean {
  if (!RETURN_ACTION_MOVES[action].from.includes(status)) return false;
  if (action === 'ship') return resolution === 'exchange';
  if (action === 'refund' || action === 'credit') return resolution !== 'exchange';
  return true;
}

/** How the cash part of an order paid on delivery goes back: as store credit, or a bank transfer staff make and record. */
export const CASH_REFUND_METHODS = ['credit', 'transfer'] as const;
export type CashRefundMethod = (typeof CASH_REFUND_METHODS)[number];

/**
 * Where a return's money goes (minor units), never more than the order has left to give back
 * (`orderLeftMinor`: what came in less what went back already, in cash and credit), never to a card
 * more than it paid:
 * - `credit`: all of it as store credit;
 * - `payment`: to the online payment first, up to what is left of it; the rest went in as store
 *   credit or cash at the door, and goes back as store credit, or (cash, when staff say so) as a
 *   bank transfer they record.
 */
export function splitReturnMoney(input: {
  amountMinor: number;
  to: 'payment' | 'credit';
  /** What is left to refund of the order's online payment (amount less refunded). */
  onlineLeftMinor: number;
  /** What the order has left to give back in all (its money account); absent: no limit besides the amount. */
  orderLeftMinor?: number;
  /** Whether part of the order was paid in cash at the door. */
  paidCash: boolean;
  cashBy?: CashRefundMethod;
}): { toPaymentMinor: number; toCreditMinor: number; byTransferMinor: number } {
  const amount = Math.max(0, Math.min(input.amountMinor, input.orderLeftMinor ?? input.amountMinor));
  if (input.to === 'credit') return { toPaymentMinor: 0, toCreditMinor: amount, byTransferMinor: 0 };
  const toPaymentMinor = Math.min(amount, Math.max(0, input.onlineLeftMinor));
  const rest = amount - toPaymentMinor;
  const byTransferMinor = input.paidCash && input.cashBy === 'transfer' ? rest : 0;
  return { toPaymentMinor, toCreditMinor: rest - byTransferMinor, byTransferMinor };
}

/**
 * An exchange's difference for `units` units of a line, in minor units: > 0 the shopper pays it
 * first, < 0 it comes back as store credit. Priced against what was paid for those units (the line's
 * discount share taken off), with the new piece at the same share off (a 20% code: a ₦120,000 shirt
 * paid ₦96,000, exchanged for a ₦105,000 colour, ₦84,000 for the same code: ₦12,000 back). Never
 * more than the two pieces differ at today's prices (`originalUnitPriceNowMinor`; the price paid
 * when the original is no longer priced), so a price cut or rise since the purchase moves nothing.
 * Exact for any amounts (integer arithmetic in BigInt), rounded toward nothing owed.
 */
export function exchangeDifference(input: {
  lineUnitPriceMinor: number;
  lineTotalMinor: number;
  lineDiscountMinor: number;
  lineQuantity: number;
  units: number;
  newUnitPriceMinor: number;
  originalUnitPriceNowMinor: number | null;
}): number {
  const paidForTheUnits = paidForUnits(input.lineTotalMinor, input.lineDiscountMinor, input.lineQuantity, input.units);
  const lineTotal = BigInt(input.lineTotalMinor);
  const linePaid = BigInt(input.lineTotalMinor - input.lineDiscountMinor);
  // A list price of `units` units at the line's share off (BigInt division truncates toward 0).
  const atLineShare = (unitPriceMinor: number) => (lineTotal === 0n ? 0 : Number((BigInt(unitPriceMinor) * BigInt(input.units) * linePaid) / lineTotal));
  const againstPaid = atLineShare(input.newUnitPriceMinor) - paidForTheUnits;
  const today = atLineShare(input.newUnitPriceMinor - (input.originalUnitPriceNowMinor ?? input.lineUnitPriceMinor));
  if (againstPaid > 0 && today > 0) return Math.min(againstPaid, today);
  if (againstPaid < 0 && today < 0) return -Math.min(-againstPaid, -today);
  return 0;
}

/** 'RT-' + 8 base32 characters from the given random bytes (at least 8): a return as shoppers and staff quote it. */
export function returnReferenceFrom(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = 'RT-';
  for (let i = 0; i < 8; i++) out += alphabet[bytes[i]! & 31];
  return out;
}

// ---------------------------------------------------------------- store credit

/**
 * A store-credit ledger row's kind: staff grant or removal (with a reason), a return credited, a
 * checkout spending it, that spend given back (the payment never became an order), an order paid
 * with credit cancelled (its credit part back).
 */
export const STORE_CREDIT_KINDS = ['grant', 'removal', 'return', 'spend', 'release', 'cancellation', 'forfeit'] as const;
export type StoreCreditKind = (typeof STORE_CREDIT_KINDS)[number];
export const STORE_CREDIT_KIND_LABELS: Record<StoreCreditKind, string> = {
  grant: 'Granted by the store',
  removal: 'Removed by the store',
  return: 'Return credited',
  spend: 'Used at checkout',
  release: 'Checkout not completed: given back',
  cancellation: 'Order cancelled: given back',
  forfeit: 'Given up when the account was deleted',
};

/** How much credit a checkout uses: what the shopper has, never more than the total. */
export function creditToUse(balanceMinor: number, totalMinor: number): number {
  return Math.max(0, Math.min(balanceMinor, totalMinor));
}

// ---------------------------------------------------------------- help with an order

export const HELP_TOPICS = ['where', 'item', 'return', 'payment', 'other'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];
export const HELP_TOPIC_LABELS: Record<HelpTopic, string> = {
  where: 'Where is my order?',
  item: 'A problem with an item',
  return: 'A return or exchange',
  payment: 'Payment or refund',
  other: 'Something else',
};

export const HELP_STATUSES = ['open', 'answered', 'closed'] as const;
export type HelpStatus = (typeof HELP_STATUSES)[number];
export const HELP_STATUS_LABELS: Record<HelpStatus, string> = { open: 'Waiting for our answer', answered: 'Answered', closed: 'Closed' };

export const HELP_MESSAGE_MAX = 2000;

/** The reference a shopper and staff quote for a help request: "HL-" and the first 8 hex digits of its id. */
export function helpReference(id: string): string {
  return `HL-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

/** wa.me link with a prefilled text about the order (SUPPORT_WHATSAPP is an E.164 number). */
export function whatsappLink(number: string, trackingNumber: string): string {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits}?text=${encodeURIComponent(`Hello, I need help with my order ${trackingNumber}.`)}`;
}

// ---------------------------------------------------------------- what pages and the API show

/** A return as the shopper's order page, the back office and the API show it (amounts in major units). */
/**
 * What happens after a return is asked for, in order: how the pieces come back, what to pack, and
 * when the refund, credit or new piece follows. The order page says it under the return and the
 * request's mail says it the same way. `dropOffAt` is the market's boutique, as an address line.
 */
export function returnNextSteps(r: Pick<ReturnDto, 'reference' | 'method' | 'resolution' | 'difference' | 'differencePaid'>, dropOffAt: string): string[] {
  const payFirst = r.resolution === 'exchange' && r.difference > 0 && !r.differencePaid;
  return [
    `Your return ${r.reference} is with us.${payFirst ? ' Pay the difference for the new piece and we approve it.' : ' We approve it first and tell you by e-mail.'}`,
    r.method === 'drop_off'
      ? `Once it is approved, bring the pieces to ${dropOffAt}, with your order number.`
      : 'Once it is approved, our courier collects the pieces from your delivery address; you can follow the collection on this page.',
    'Pack each piece as it came: unworn, with its tags, dust bag and box.',
    r.resolution === 'refund'
      ? 'Once we have received and checked the pieces, we refund what you paid for them to your payment.'
      : r.resolution === 'credit'
        ? 'Once we have received and checked the pieces, their value is added to your store credit.'
        : 'Once we have received the pieces, we send your new one and you can follow it here.',
  ];
}

export interface ReturnDto {
  id: string;
  reference: string;
  orderId: string;
  status: ReturnStatus;
  statusLabel: string;
  reason: ReturnReason;
  reasonLabel: string;
  resolution: ReturnResolution;
  resolutionLabel: string;
  method: ReturnMethod;
  methodLabel: string;
  rejectionReason: string | null;
  currency: string;
  items: {
    /** The return line's id (staff's received/damaged fields are keyed on it). */
    id: number;
    orderItemId: number;
    productId: number;
    productName: string;
    productImage: string;
    color: string | null;
    size: string | null;
    quantity: number;
    /** The exchange's new variant, or null. */
    exchange: { variantId: number; color: string | null; size: string | null; unitPrice: number } | null;
    receivedQuantity: number | null;
    damagedQuantity: number | null;
  }[];
  /** What was paid for the returned units (after discount shares). */
  paid: number;
  /** An exchange's difference: > 0 the shopper pays it before approval, < 0 it comes back at shipping. */
  difference: number;
  differencePaid: boolean;
  refunded: number;
  credited: number;
  transferred: number;
  transferReference: string | null;
  shipmentTracking: string | null;
  createdAt: string;
  updatedAt: string;
}
