/**
 * The money of an order, as one account (ADR 0021): every amount that came in for it or went back
 * is a row with a kind and a signed amount in minor units (in: positive; back: negative). What an
 * order may still give back is read from these rows. No I/O.
 */

export const ORDER_MONEY_KINDS = [
  /** Charged online by the order's payment (a card, a transfer, a deposit). */
  'charged',
  /** Collected at the door (pay on delivery). */
  'collected',
  /** Store credit spent at checkout. */
  'credit_used',
  /** A dearer exchange's difference, paid online. */
  'difference_paid',
  /** Refunded to a payment (written when the refund is claimed, before the provider is asked). */
  'refunded',
  /** A refund claim the provider refused, or staff let go: the claimed amount counted back in. */
  'refund_released',
  /** Given back as store credit (a return, a cheaper exchange's difference, a cancelled order's credit). */
  'credited',
  /** Sent back by a bank transfer staff recorded (cash paid at the door). */
  'transferred',
] as const;
export type OrderMoneyKind = (typeof ORDER_MONEY_KINDS)[number];

/** Kinds that bring money in; the others give it back (refund_released undoes a refunded claim). */
export const ORDER_MONEY_IN: readonly OrderMoneyKind[] = ['charged', 'collected', 'credit_used', 'difference_paid'];

/** The sign each kind's amount carries. */
export function orderMoneySign(kind: OrderMoneyKind): 1 | -1 {
  return ORDER_MONEY_IN.includes(kind) || kind === 'refund_released' ? 1 : -1;
}

export interface OrderMoneyTotals {
  /** Everything that came in (charged, collected, credit used, differences paid). */
  takenMinor: number;
  /** Everything given back (refunds claimed or made, credit, transfers), less released claims. */
  givenBackMinor: number;
  /** What may still go back, in cash and credit together: taken less given back, never below 0. */
  leftMinor: number;
}

/** Totals of an order's rows (amounts signed as written). */
export function orderMoneyTotals(rows: readonly { kind: OrderMoneyKind; amountMinor: number }[]): OrderMoneyTotals {
  let taken = 0;
  let back = 0;
  for (const r of rows) {
    if (ORDER_MONEY_IN.includes(r.kind)) taken += r.amountMinor;
    else back -= r.amountMinor;
  }
  return { takenMinor: taken, givenBackMinor: back, leftMinor: Math.max(0, taken - back) };
}
