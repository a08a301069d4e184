/**
 * Account rules and messages shared by the server schemas (accounts.ts) and the islands.
 * No zod here, so islands can check input in the browser without shipping a validator library.
 */
export const CODE_LENGTH = 4;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Profile pictures: spec says under 5MB; the server also caps decoded size. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_MAX_PIXELS = 40_000_000;
/** Profile-picture changes per shopper per day (each is decoded, re-encoded and stored). */
export const AVATAR_CHANGES_PER_DAY = 10;

/** An account's role: a shopper (customer), staff (catalogue, stock, orders, customers) or an owner (also staff and the audit log). */
export const ROLES = ['customer', 'staff', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const MESSAGES = {
  invalidOtp: 'Please enter a valid 4-digit OTP',
  passwordsDoNotMatch: 'Passwords do not match!',
  fillBothPasswords: 'Please fill in both password fields.',
  notAnImage: 'Please select an image file',
  imageTooLarge: 'Image size should be less than 5MB',
  invalidCredentials: 'Invalid email or password',
  verifyFirst: 'Please verify your email before logging in.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  invalidEmail: 'Please enter a valid email address',
  emailNotFound: 'Email not found',
} as const;

export function isValidOtp(otp: string): boolean {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(otp);
}

/** The first problem with a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX) return MESSAGES.passwordTooLong;
  return null;
}

/** Browser-side checks before an upload; the server checks the real content again. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return MESSAGES.notAnImage;
  if (file.size >= AVATAR_MAX_BYTES) return MESSAGES.imageTooLarge;
  return null;
}
