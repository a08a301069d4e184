import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, isValidOtp } from './account-rules';
import { COUNTRIES, DEFAULT_COUNTRY, ZIP_REQUIRED, isStateOf } from './geo';
import { fill, message } from './messages';
import { text } from './validation';
import { UPDATE_CHANNELS } from './order-updates';

/** The shopper's choice of channel for order updates (order-updates.ts; a zod-free module, read by islands). */
export const updateChannelField = z.enum(UPDATE_CHANNELS, { error: message('updates-channel-invalid') });

/** Request schemas for the account and address API; messages are the ones shoppers see. */

const required = (label: string, max = 100) =>
  z
    .string({ error: `${label} is required` })
    .pipe(text(label, max).min(1, `${label} is required`));

export const emailSchema = z
  .string({ error: message('email-required') })
  .trim()
  .min(1, message('email-required'))
  .max(254, message('invalid-email'))
  .toLowerCase()
  .pipe(z.email(message('invalid-email')));

export const newPasswordSchema = z
  .string({ error: message('password-required') })
  .min(PASSWORD_MIN, fill('password-too-short', PASSWORD_MIN))
  .max(PASSWORD_MAX, fill('password-too-long', PASSWORD_MAX));

export const otpSchema = z
  .string({ error: message('invalid-otp') })
  .trim()
  .refine(isValidOtp, message('invalid-otp'));

export const countrySchema = z.enum(COUNTRIES, { error: message('country-invalid') });

const PHONE_PATTERN = /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/;

export const phoneSchema = z
  .string({ error: message('phone-required') })
  .trim()
  .min(1, message('phone-required'))
  .regex(PHONE_PATTERN, message('phone-invalid'));

export const registerSchema = z.object({
  firstName: required('First name', 60),
  lastName: required('Last name', 60),
  email: emailSchema,
  password: newPasswordSchema,
  phoneNumber: phoneSchema,
  country: countrySchema.default(DEFAULT_COUNTRY),
});
export type RegisterInput = z.output<typeof registerSchema>;

export const emailOnlySchema = z.object({ email: emailSchema });

export const verifyOtpSchema = z.object({ email: emailSchema, otp: otpSchema });

export const loginSchema = z.object({
  email: emailSchema,
  // Any length is checked against the hash (old accounts); only absurd sizes are refused.
  password: z.string({ error: message('password-required') }).min(1, message('password-required')).max(1024, message('invalid-credentials')),
});

export const resetPasswordSchema = z
  .object({
    email: emailSchema,
    otp: otpSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: message('passwords-differ'),
  });

export const changePasswordSchema = z
  .object({
    oldPassword: z.string({ error: message('fill-both-passwords') }).min(1, message('fill-both-passwords')).max(1024),
    newPassword: z.string({ error: message('fill-both-passwords') }).min(1, message('fill-both-passwords')),
    userId: z.string().optional(),
  })
  .pipe(
    z.object({
      oldPassword: z.string(),
      newPassword: newPasswordSchema,
      userId: z.string().optional(),
    }),
  );

export const profileUpdateSchema = z
  .object({
    firstName: required('First name', 60).optional(),
    lastName: required('Last name', 60).optional(),
    phoneNumber: phoneSchema.optional(),
    country: countrySchema.optional(),
    userId: z.string().optional(),
  })
  .refine((v) => v.firstName ?? v.lastName ?? v.phoneNumber ?? v.country, { message: message('nothing-to-update') });
export type ProfileUpdate = Omit<z.output<typeof profileUpdateSchema>, 'userId'>;

/**
 * "Order updates": `updates` is text, whatsapp or none. Clients of the earlier "Text me order
 * updates" box send `textUpdates` instead: true is text, false (or an unticked box, which posts
 * nothing) is none.
 */
export const orderUpdatesSchema = z
  .object({
    updates: updateChannelField.optional(),
    textUpdates: z.boolean({ error: message('text-updates-invalid') }).default(false),
    userId: z.string().optional(),
  })
  .transform(({ updates, textUpdates, userId }) => ({ userId, channel: updates ?? (textUpdates ? ('text' as const) : ('none' as const)) }));

export const userIdQuerySchema = z.object({ userId: z.string().optional() });

// ---------------------------------------------------------------- addresses

const addressFields = {
  name: required('Full name', 100),
  country: countrySchema,
  state: required('State or Province', 60),
  city: required('City', 80),
  address: required('Address', 200),
  /** Many Nigerian addresses have no postcode in use: optional there, required where it is (ZIP_REQUIRED). */
  zipCode: z.string({ error: message('zip-required') }).pipe(text('Postcode', 12)).optional().default(''),
  /** For the courier: a landmark or directions, and the number to call at the door (both optional). */
  landmark: z.string({ error: message('landmark-invalid') }).pipe(text('Landmark or directions', 200)).optional().default(''),
  deliveryPhone: z
    .string({ error: message('phone-invalid') })
    .trim()
    .refine((v) => v === '' || PHONE_PATTERN.test(v), message('phone-invalid'))
    .optional()
    .default(''),
};

const stateMatchesCountry = (v: { country: (typeof COUNTRIES)[number]; state: string }) => isStateOf(v.country, v.state);
const stateMessage = { message: message('state-required'), path: ['state'] };
const zipPresentWhereRequired = (v: { country: (typeof COUNTRIES)[number]; zipCode: string }) => !ZIP_REQUIRED[v.country] || v.zipCode !== '';

export const addressInputSchema = z
  .object({ ...addressFields, active: z.boolean().optional(), userId: z.string().optional() })
  .refine(stateMatchesCountry, stateMessage)
  .refine(zipPresentWhereRequired, { message: message('zip-required'), path: ['zipCode'] });
export type AddressInput = z.output<typeof addressInputSchema>;

/** `{active: true}` alone (plus the optional userId) makes the address the default. */
export const makeDefaultSchema = z.strictObject({ active: z.literal(true), userId: z.string().optional() });

/** An edit either replaces the fields or, with only `active: true`, makes the address the default. */
export function isMakeDefaultEdit(body: Record<string, unknown>): boolean {
  return Object.keys(body).every((k) => k === 'active' || k === 'userId') && 'active' in body;
}

/** Path ids are UUIDs; anything else names nothing that exists. */
export const uuidParam = (message: string) => z.uuid({ error: message });
