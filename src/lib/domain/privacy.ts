import { z } from 'zod';
import { message } from './messages';
import type { MarketCode } from './markets';
import type { AddressDto } from './shipping';

/**
 * The shopper's rights over their data (NDPA 2023, POPIA): a copy of everything the store holds
 * about them, and the account's deletion, which erases the person and keeps the books.
 */

/** A shopper's download needs the e-mail proved with a code when the session is older than this. */
export const SHOPPER_CONFIRM_FRESH_MS = 24 * 60 * 60 * 1000;
/** Staff exporting or erasing a shopper's data prove their own e-mail with a code this recently. */
export const STAFF_CONFIRM_FRESH_MS = 15 * 60 * 1000;

/** Days to answer a request made by mail or phone, unless a market sets its own. */
export const DEFAULT_PRIVACY_REQUEST_DAYS = 30;

/**
 * Years the law keeps a sale's record (orders, payments, invoices and credit notes) after an
 * account is deleted: Nigeria's tax administration six, South Africa's Tax Administration Act five.
 */
export const BOOKS_KEPT_YEARS: Record<MarketCode, number> = { NG: 6, ZA: 5 };

/** What an erased account is called where the books still name the account. */
export const ERASED_FIRST_NAME = 'Deleted';
export const ERASED_LAST_NAME = 'account';

/** The unique, undeliverable address an erased account keeps (the old one may register again). */
export function anonymousEmail(userId: string): string {
  return `erased-${userId}@erased.invalid`;
}

/** A delivery address cut to what the books need (city, state, country); the person and the street go. */
export function cutAddress(a: AddressDto): AddressDto {
  return { id: '', name: 'Deleted account', country: a.country, state: a.state, city: a.city, address: '', zipCode: '' };
}

/** A whole session proved with the password is as good as a code for this long after signing in. */
export function recentlyProved(session: { createdAt: Date; confirmedAt: Date | null }, now: Date, withinMs: number): boolean {
  const last = Math.max(session.createdAt.getTime(), session.confirmedAt?.getTime() ?? 0);
  return now.getTime() - last < withinMs;
}

/** Why an account cannot be deleted yet. */
export type DeletionBlocker = { kind: 'order'; trackingNumber: string } | { kind: 'return'; reference: string } | { kind: 'payment'; reference: string };

export const DATA_REQUEST_KINDS = ['export', 'erasure'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];
export const DATA_REQUEST_KIND_LABELS: Record<DataRequestKind, string> = { export: 'Copy of data', erasure: 'Delete account' };
export const DATA_REQUEST_CHANNELS = ['mail', 'phone'] as const;
export const DATA_REQUEST_CHANNEL_LABELS: Record<(typeof DATA_REQUEST_CHANNELS)[number], string> = { mail: 'By mail', phone: 'By phone' };

const code = z.string().trim().regex(/^\d{4}$/, message('invalid-otp'));
const optionalCode = z.preprocess((v) => (v === '' ? undefined : v), code.optional());
const ticked = z.preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean()).default(false);

/** "Download my data": the code, when the session needs one. */
export const downloadInput = z.object({ code: optionalCode });

/** "Delete my account": the e-mailed code, and the shopper's word that remaining store credit is given up. */
export const deleteAccountInput = z.object({ code, giveUpCredit: ticked });

/** Staff recording a request that came by mail or phone. */
export const dataRequestInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter the shopper’s e-mail address')),
  kind: z.enum(DATA_REQUEST_KINDS),
  channel: z.enum(DATA_REQUEST_CHANNELS),
  note: z.string().trim().max(500).default(''),
});

/** Staff answering a request: their own e-mailed code (when not proved recently), and for an erasure the shopper's credit given up. */
export const dataRequestActionInput = z.object({ code: optionalCode, giveUpCredit: ticked });

export const privacyDaysInput = z.object({ days: z.coerce.number().int().min(1).max(90) });
