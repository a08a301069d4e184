import { z } from 'zod';

/**
 * The one place that reads process.env. Every variable is validated here so a bad
 * value stops start-up with a message that names it.
 */
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

const configSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(4321)),
    HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
    PUBLIC_SITE_URL: z.preprocess(emptyToUndefined, z.url().default('http://localhost:4321')),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    PAYMENT_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['simulated', 'paystack']).default('simulated')),
    PAYSTACK_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    PAYSTACK_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.paystack.co')),
    SMTP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Maison Luxe <hello@maisonluxe.example>')),
    STORE_CURRENCY: z.preprocess(emptyToUndefined, z.enum(['NGN', 'ZAR']).default('NGN')),
    STORE_DEV_MAILBOX: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info')),
  })
  .superRefine((c, ctx) => {
    if (c.PAYMENT_PROVIDER === 'paystack' && !c.PAYSTACK_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['PAYSTACK_SECRET_KEY'], message: 'is required when PAYMENT_PROVIDER=paystack' });
    }
  });

export type Config = z.infer<typeof configSchema> & {
  /** Whether the dev outbox pages and API are reachable. */
  devMailboxEnabled: boolean;
  production: boolean;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = result.data;
  const production = c.NODE_ENV === 'production';
  return { ...c, production, devMailboxEnabled: !production || c.STORE_DEV_MAILBOX === 'true' };
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
