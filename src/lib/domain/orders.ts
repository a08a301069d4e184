/** Order statuses, their transitions and colours, and the order as the API returns it. */
import type { CurrencyCode } from './money';
import { apiDeliveryOption, type AddressDto, type DeliveryOption, type DeliverySpeedId } from './shipping';
import type { PaymentMethod } from './payment-methods';
import type { Gift } from './gifts';
import type { ChosenLocker } from './lockers';
import { PAYMENT_STATUSES } from './payments';

export const ORDER_STATUSES = ['pending', 'processed', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Staff may only move an order forward, or cancel it before delivery. */
const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['processed', 'cancelled'],
  processed: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function allowedNextStatuses(from: OrderStatus): readonly OrderStatus[] {
  return TRANSITIONS[from];
}

/** The statuses staff may set: every status some transition leads to (all but the first). */
export const STAFF_SETTABLE_STATUSES = ORDER_STATUSES.filter((s) => ORDER_STATUSES.some((from) => TRANSITIONS[from].includes(s)));

/** "pending, processed, delivered or cancelled": the statuses as a sentence says them. */
export const ORDER_STATUS_LIST = `${ORDER_STATUSES.slice(0, -1).join(', ')} or ${ORDER_STATUSES.at(-1)}`;

export function isOrderStatus(s: string): s is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(s);
}

export type StatusColour = 'yellow' | 'blue' | 'green' | 'red' | 'grey';

/** Pending yellow, processed blue, delivered green, cancelled red, anything else grey. */
const STATUS_COLOURS: Record<OrderStatus, StatusColour> = { pending: 'yellow', processed: 'blue', delivered: 'green', cancelled: 'red' };

export function statusColour(status: string): StatusColour {
  const s = status.toLowerCase();
  return isOrderStatus(s) ? STATUS_COLOURS[s] : 'grey';
}

/** Filter chips of /order-history, in the order the page shows them; 'all' shows everything. */
export const STATUS_FILTERS = [
  { value: 'all', label: 'All Orders' },
  { value: 'processed', label: 'Processed' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'pending', label: 'Pending' },
] as const satisfies readonly { value: OrderStatus | 'all'; label: string }[];

export type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

/** The order history's chip from a link's ?status=, in any letter case; unknown or empty is 'all'. */
export function normaliseStatusFilter(filter: string | null | undefined): StatusFilter {
  const f = (filter ?? '').trim().toLowerCase();
  return STATUS_FILTERS.find((c) => c.value === f)?.value ?? 'all';
}

export interface OrderItemDto {
  /** The order line's id (a return names its lines by it). */
  id: number;
  productId: number;
  productName: string;
  /** Alias of productName for the older orders screen. */
  name: string;
  productImage: string;
  image: string[];
  color: string | null;
  size: string | null;
  quantity: number;
  /** Line total, major units. */
  price: number;
  unitPrice: number;
  /** The line's share of the order's discount, major units (0 without one). */
  discount: number;
}

export interface OrderDto {
  id: string;
  trackingNumber: string;
  createdAt: string;
  date: string;
  status: OrderStatus;
  deliveryOption: DeliveryOption;
  /** The delivery's speed as chosen at checkout (null for pickup and for orders from before speeds). */
  deliverySpeed: { id: DeliverySpeedId; name: string; days: string } | null;
  deliveryAddress: AddressDto;
  items: OrderItemDto[];
  itemCount: number;
  subtotal: number;
  /** Money off the subtotal from a discount code (0 without one); total = subtotal - discount + deliveryFee. */
  discount: number;
  /** The code applied to the order, or null. */
  discountCode: string | null;
  deliveryFee: number;
  total: number;
  currency: CurrencyCode;
  /** 'due' while money is still to be paid at the door (amountDue > 0, not yet collected); otherwise 'paid'. */
  payment: 'paid' | 'due';
  /** How it is paid, as shoppers read it ("Card", "Bank transfer", "Pay on delivery"…). */
  paymentMethod: string;
  paymentMethodCode: PaymentMethod;
  /** What is still to pay at the door, major units (0 when nothing is left to pay). */
  amountDue: number;
  /** Whether the shopper may still cancel it ("Cancel order"): pending, and not settled at the door. */
  cancellable: boolean;
  /** Store credit used at checkout, major units (0 without). */
  storeCredit: number;
  /** When it was delivered (ISO), and when its 3-day return window closes; null until delivered. */
  deliveredAt: string | null;
  returnWindowClosesAt: string | null;
  /** Whether a return or exchange may be asked for now ("Return or exchange"). */
  returnable: boolean;
  /** The payment's state as shoppers read it beside the status: "Paid", "To pay on delivery", "Refunded"… */
  paymentState: PaymentState;
  /** A gift's recipient, message and choices (ADR 0035); null for an order that is not a gift. */
  gift: Gift | null;
  /** Gift wrapping's fee, major units (0 without); part of total. */
  giftWrap: number;
  /** The courier's locker (PUDO locker) the parcel goes to, its fee being deliveryFee; null otherwise. */
  locker: ChosenLocker | null;
}

export const PAYMENT_STATES = ['Paid', 'To pay on delivery', 'Refunded', 'Partly refunded', 'Nothing charged'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** What the order's payment says to the shopper: a just-paid order never looks unpaid. */
export function paymentStateOf(order: { status: OrderStatus; dueMinor: number }, payment: { status: string; amountMinor: number } | null): PaymentState {
  if (payment?.status === PAYMENT_STATUSES.refunded) return 'Refunded';
  if (payment?.status === PAYMENT_STATUSES.partially_refunded) return 'Partly refunded';
  if (order.dueMinor > 0) return 'To pay on delivery';
  if (order.status === 'cancelled' && (payment?.amountMinor ?? 0) === 0) return 'Nothing charged';
  return 'Paid';
}

/** Total number of units in an order (the card's "item count"). */
export function itemCount(items: readonly { quantity: number }[]): number {
  return items.reduce((n, i) => n + i.quantity, 0);
}

const TRACKING_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 'ML-' + 8 base32 characters from the given random bytes (at least 8). */
export function trackingNumberFrom(bytes: Uint8Array): string {
  let out = 'ML-';
  for (let i = 0; i < 8; i++) out += TRACKING_ALPHABET[bytes[i]! & 31];
  return out;
}

export const TRACKING_NUMBER_PATTERN = /^ML-[A-Z2-7]{8}$/;

const dateFormat = new Intl.DateTimeFormat('en-NG', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Africa/Lagos' });

export function formatOrderDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/**
 * What is still to pay at the door for an order (minor units): its due on delivery while it is
 * open and not yet settled by staff; nothing once collected, refused or cancelled.
 */
export function amountDueMinor(order: { status: OrderStatus; dueOnDeliveryMinor: number; collectionOutcome: string | null }): number {
  return order.status === 'cancelled' || order.collectionOutcome !== null ? 0 : order.dueOnDeliveryMinor;
}

/** A shopper may cancel an order still pending and not settled at the door. */
export function shopperMayCancel(order: { status: OrderStatus; collectionOutcome: string | null }): boolean {
  return order.status === 'pending' && order.collectionOutcome === null;
}

/** An order as the API answers it: collecting at the boutique is `pickup` there (apiDeliveryOption). */
export function apiOrder<T extends { deliveryOption: DeliveryOption }>(order: T): Omit<T, 'deliveryOption'> & { deliveryOption: ReturnType<typeof apiDeliveryOption> } {
  return { ...order, deliveryOption: apiDeliveryOption(order.deliveryOption) };
}
