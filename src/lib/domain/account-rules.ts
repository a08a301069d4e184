/**
 * Account rules shared by the server schemas (accounts.ts) and the islands, with their texts from
 * toasts.ts. No zod here, so islands can check input in the browser without shipping a validator library.
 */
import { TOASTS } from './toasts';

export const CODE_LENGTH = 4;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Profile pictures: under 5MB; the server also caps decoded size. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_MAX_PIXELS = 40_000_000;
/** Profile-picture changes per shopper per day (each is decoded, re-encoded and stored). */
export const AVATAR_CHANGES_PER_DAY = 10;

/**
 * An account's role: a shopper (customer), staff (catalogue, stock, orders, customers, pages), an
 * owner (also staff and the audit log) or an editor (the content pages only).
 */
export const ROLES = ['customer', 'staff', 'owner', 'editor'] as const;
export type Role = (typeof ROLES)[number];

export function isValidOtp(otp: string): boolean {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(otp);
}

/** The first problem with a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return TOASTS['password-too-short'].replace('{count}', String(PASSWORD_MIN));
  if (password.length > PASSWORD_MAX) return TOASTS['password-too-long'].replace('{count}', String(PASSWORD_MAX));
  return null;
}

/** Browser-side checks before an upload; the server checks the real content again. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return TOASTS['not-an-image'];
  if (file.size >= AVATAR_MAX_BYTES) return TOASTS['image-too-large'];
  return null;
}
