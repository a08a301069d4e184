import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { BlockList } from 'node:net';
import { z } from 'zod';
import { STORE_NAME } from '@/lib/domain/brand';
import { parseAddressList, parseProxyTrust, type ProxyTrust } from '@/lib/domain/client-address';
import { DEFAULT_MARKET, MARKET_CODES, type MarketCode } from '@/lib/domain/markets';
import { DEFAULT_PARCEL_SIZES, type ParcelSize } from '@/lib/domain/parcels';
import { isE164 } from '@/lib/domain/phone';
import type { CourierAddress, CourierName } from '@/lib/domain/delivery';
import { LIMITS } from './rate-limit';

/**
 * Each market's Paystack account: PAYSTACK_SECRET_KEY_<MARKET> (PAYSTACK_SECRET_KEY_NG,
 * PAYSTACK_SECRET_KEY_ZA); PAYSTACK_SECRET_KEY still stands for Nigeria's, as before markets.
 */
function paystackKeysFrom(env: Record<string, string | undefined>): Partial<Record<MarketCode, string>> {
  const keys: Partial<Record<MarketCode, string>> = {};
  for (const code of MARKET_CODES) {
    const key = env[`PAYSTACK_SECRET_KEY_${code}`] || (code === DEFAULT_MARKET ? env.PAYSTACK_SECRET_KEY : undefined);
    if (key) keys[code] = key;
  }
  return keys;
}

/**
 * Settings that have a new name: the former one is still read while the new one is unset, and the
 * server warns at start-up that it should be renamed.
 */
export const RENAMED_SETTINGS = {
  PICKUP_POINTS_ZA: 'LOCKERS_ZA',
  STORE_PICKUP_NG: 'COURIER_COLLECTION_NG',
  STORE_PICKUP_ZA: 'COURIER_COLLECTION_ZA',
} as const;

/** The environment with each former name's value under its new name (unless that is set), and the former names still in use. */
export function withRenamedSettings(env: Record<string, string | undefined>): { env: Record<string, string | undefined>; renamed: { from: string; to: string }[] } {
  const out = { ...env };
  const renamed: { from: string; to: string }[] = [];
  for (const [from, to] of Object.entries(RENAMED_SETTINGS)) {
    if (env[from] === undefined || env[from] === '') continue;
    renamed.push({ from, to });
    if (env[to] === undefined || env[to] === '') out[to] = env[from];
    delete out[from];
  }
  return { env: out, renamed };
}

/**
 * Where a market's courier collects the parcels (COURIER_COLLECTION_NG, COURIER_COLLECTION_ZA): one line
 * of JSON an operator can put in .env, e.g.
 *   COURIER_COLLECTION_NG={"name":"Maison Luxe","phone":"+2348030000000","email":"dispatch@…","line1":"15 Babatunde Jose St","city":"Lagos","region":"Lagos"}
 */
const courierCollectionAddress = z
  .object({
    name: z.string().trim().min(1),
    phone: z.string().refine(isE164, 'must be an E.164 number, e.g. +2348012345678'),
    email: z.email().nullish(),
    line1: z.string().trim().min(1),
    line2: z.string().nullish(),
    city: z.string().trim().min(1),
    region: z.string().trim().min(1),
    postalCode: z.string().nullish(),
    landmark: z.string().nullish(),
  })
  .strict();

const parcelSizes = z.record(
  z.string().min(1),
  z.object({
    weightGrams: z.number().int().positive(),
    lengthCm: z.number().positive(),
    widthCm: z.number().positive(),
    heightCm: z.number().positive(),
  }),
);

/** Parses a JSON setting with `schema`; the message names what is wrong in it. */
function jsonSetting<T>(raw: string | undefined, schema: z.ZodType<T>): { ok: true; value: T | null } | { ok: false; message: string } {
  if (raw === undefined) return { ok: true, value: null };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, message: 'must be JSON (see docs/couriers.md)' };
  }
  const r = schema.safeParse(json);
  if (!r.success) return { ok: false, message: r.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ') };
  return { ok: true, value: r.data };
}

/**
 * The one place that reads process.env. Every variable is validated here so a bad
 * value stops start-up with a message that names it. Behaviour never depends on
 * NODE_ENV: the built server always runs in production mode, and what used to switch on
 * it has its own setting (STORE_MODE, the scheme of PUBLIC_SITE_URL).
 */
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/**
 * scrypt's cost as log2 of N for new password hashes: OWASP's recommendation (N=2^17, 128 MiB
 * and ~100 ms of a core a hash) and the least a live store accepts. Test servers set it lower;
 * a hash keeps the cost it was made with, so hashes of any cost keep verifying.
 */
export const PRODUCTION_SCRYPT_LOG2_N = 17;

const configSchema = z
  .object({
    /** demo: simulated payments, dev outbox, demo shopper and catalogue. live: a real shop. */
    STORE_MODE: z.preprocess(emptyToUndefined, z.enum(['demo', 'live']).default('demo')),
    /** 0: any free port, the one bound is logged (and reported to a parent process: src/server/server.ts). */
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(4321)),
    HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
    /**
     * The public address of the store. Defaults to http://localhost:$PORT (filled in below); unset,
     * a trusted proxy's forwarded headers may name the public origin (src/lib/domain/public-origin.ts).
     */
    PUBLIC_SITE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    PAYMENT_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['simulated', 'paystack']).default('simulated')),
    /** Nigeria's Paystack account (kept for stores configured before markets; PAYSTACK_SECRET_KEY_NG wins). */
    PAYSTACK_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Each market's Paystack account (PAYSTACK_SECRET_KEY_<MARKET>; read generically below, listed here for the two markets). */
    PAYSTACK_SECRET_KEY_NG: z.preprocess(emptyToUndefined, z.string().optional()),
    PAYSTACK_SECRET_KEY_ZA: z.preprocess(emptyToUndefined, z.string().optional()),
    PAYSTACK_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.paystack.co')),
    SMTP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    /**
     * Signs the links in mails that act without a login (newsletter confirm and unsubscribe).
     * At least 32 characters; required in live mode, derived in demo mode (see linkSecret).
     */
    LINK_SIGNING_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default(`${STORE_NAME} <hello@maisonluxe.example>`)),
    /**
     * Text messages (SMS): outbox keeps them in the dev outbox (GET /api/v1/dev/outbox?to=+234…);
     * clickatell sends them through Clickatell's One API (Nigeria and South Africa alike).
     */
    SMS_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['outbox', 'clickatell']).default('outbox')),
    CLICKATELL_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    CLICKATELL_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://platform.clickatell.com')),
    /**
     * Order updates on WhatsApp (the shopper's choice): cloud sends utility templates through the
     * WhatsApp Business Platform's Cloud API; outbox keeps them in the dev outbox with the number's
     * texts; off offers no WhatsApp choice. Unset: outbox in demo mode, off in live mode.
     */
    WHATSAPP: z.preprocess(emptyToUndefined, z.enum(['outbox', 'cloud', 'off']).optional()),
    /** A system user's access token with whatsapp_business_messaging (sent as a Bearer token). */
    WHATSAPP_TOKEN: z.preprocess(emptyToUndefined, z.string().optional()),
    /** The id of the store's business phone number in WhatsApp Manager (not the number itself). */
    WHATSAPP_PHONE_NUMBER_ID: z.preprocess(emptyToUndefined, z.string().regex(/^\d{5,30}$/, 'must be the numeric phone number id from WhatsApp Manager').optional()),
    /** The Meta app's secret: webhook calls carry X-Hub-Signature-256, its HMAC of the body. */
    WHATSAPP_APP_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
    /** The token typed into the app's webhook settings; Meta sends it back to verify the webhook URL. */
    WHATSAPP_VERIFY_TOKEN: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
    WHATSAPP_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://graph.facebook.com')),
    WHATSAPP_API_VERSION: z.preprocess(emptyToUndefined, z.string().regex(/^v\d+\.\d+$/, 'must look like v23.0').default('v23.0')),
    /** The store's WhatsApp number (E.164): order pages offer a chat prefilled with the tracking number. */
    SUPPORT_WHATSAPP: z.preprocess(emptyToUndefined, z.string().regex(/^\+[1-9]\d{7,14}$/, 'must be an E.164 number, e.g. +2348012345678').optional()),
    /** Pay on delivery: off until the store offers it; a live store needs an SMS provider for it. */
    PAY_ON_DELIVERY: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('off')),
    /**
     * The service worker (offline mode, ADR 0030). off: pages no longer register it, and /sw.js answers
     * with a worker that removes itself and its caches, so phones that installed one are healed.
     */
    SERVICE_WORKER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    /**
     * The id of the running build, naming the service worker's caches: by default the one made at build
     * time; a deployment may set its own (a commit), the same on every app server of one release.
     */
    BUILD_ID: z.preprocess(emptyToUndefined, z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, dots and dashes').optional()),
    /** Seconds an anonymous catalogue page is served from the route cache before it is re-rendered. */
    PAGE_CACHE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(86_400).default(60)),
    /** Proxies in front of the app (a hop count, or IPs/CIDRs); empty: X-Forwarded-For is ignored. */
    TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Who may read /metrics (Prometheus): IPs and CIDR ranges, as the client address is worked out (TRUST_PROXY). */
    METRICS_ALLOW: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1, ::1')),
    /** Sign-ups allowed per client address (checked before any password is hashed); docs/security.md. */
    SIGNUPS_PER_ADDRESS_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(LIMITS.signUpsPerAddressPerMinute.max)),
    SIGNUPS_PER_ADDRESS_PER_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(LIMITS.signUpsPerAddressPerHour.max)),
    /** Reconciliation verifies payments left unanswered this long after they started (0: at once). */
    PAYMENTS_RECONCILE_AFTER_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(1440).default(5)),
    /** How often the reconciliation job runs (it also runs at start). */
    PAYMENTS_RECONCILE_EVERY_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().min(0.1).max(1440).default(5)),
    /** A payment the provider still calls abandoned this long after it started is marked abandoned. */
    PAYMENTS_ABANDON_AFTER_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(720).default(24)),
    /** The simulated provider confirms a bank transfer the shopper says was sent this long after (its "webhook"). */
    SIMULATED_TRANSFER_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3_600_000).default(5_000)),
    /** Scheduled backups inside the store: every this many hours (unset or 0: none; `npm run backup` still works). */
    BACKUP_EVERY_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(24 * 31).default(0)),
    /** Where backups are written (scheduled ones and `npm run backup`), on the machine that takes them. */
    BACKUP_DIR: z.preprocess(emptyToUndefined, z.string().default('./backups')),
    /** Scheduled backups kept in BACKUP_DIR; older ones are deleted after each new one. */
    BACKUP_KEEP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(14)),
    /** Retention: mails and texts in the outboxes are deleted this many days after they were written. */
    RETENTION_OUTBOX_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(36_500).default(90)),
    /** Retention: a cart nobody has touched for this many days is deleted with its lines. */
    RETENTION_CART_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(36_500).default(180)),
    /** Retention: what shoppers searched for (the search report's log) is deleted after this many days. */
    RETENTION_SEARCH_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(36_500).default(365)),
    /** log2 of scrypt's N for new password hashes (PRODUCTION_SCRYPT_LOG2_N above; live mode refuses less). */
    SCRYPT_LOG2_N: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(20).default(PRODUCTION_SCRYPT_LOG2_N)),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info')),
    /** Each market's courier (docs/couriers.md): manual is staff typing the events, the demo's default. */
    COURIER_NG: z.preprocess(emptyToUndefined, z.enum(['manual', 'shipbubble']).default('manual')),
    COURIER_ZA: z.preprocess(emptyToUndefined, z.enum(['manual', 'shiplogic']).default('manual')),
    SHIPBUBBLE_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    /** What Shipbubble signs webhooks with; unset, the API key (which is what Shipbubble uses). */
    SHIPBUBBLE_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
    SHIPBUBBLE_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.shipbubble.com/v1')),
    /** Shipbubble's label category for the store's goods (its "Fashion wears"). */
    SHIPBUBBLE_CATEGORY_ID: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(98246239)),
    SHIPLOGIC_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    /** ShipLogic's original credentials (an AWS access key pair signing each request), for accounts without an API key. */
    SHIPLOGIC_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    SHIPLOGIC_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    SHIPLOGIC_AWS_REGION: z.preprocess(emptyToUndefined, z.string().default('af-south-1')),
    /** The secret the store's ShipLogic webhook is signed with (x-shiplogic-signature). */
    SHIPLOGIC_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
    SHIPLOGIC_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.shiplogic.com')),
    /** Where a shopper follows a ShipLogic parcel; {ref} is replaced by its tracking reference. */
    SHIPLOGIC_TRACKING_URL: z.preprocess(emptyToUndefined, z.string().includes('{ref}', { message: 'must contain {ref}' }).default('https://portal.thecourierguy.co.za/track?ref={ref}')),
    /**
     * The couriers' lockers a South African shopper may choose at checkout: none, PUDO lockers (its
     * API), or demo (a fixed list of PUDO lockers, no key, no network). Unset: demo in demo mode,
     * none in live mode.
     */
    LOCKERS_ZA: z.preprocess(emptyToUndefined, z.enum(['none', 'pudo', 'demo']).optional()),
    PUDO_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    PUDO_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api-pudo.co.za')),
    /** Where a shopper follows a PUDO parcel ({ref}: its waybill); unset: no link, the order's timeline only. */
    PUDO_TRACKING_URL: z.preprocess(emptyToUndefined, z.string().includes('{ref}', { message: 'must contain {ref}' }).optional()),
    /** Where each market's courier collects the parcels, as JSON (courierCollectionAddress above). */
    COURIER_COLLECTION_NG: z.preprocess(emptyToUndefined, z.string().optional()),
    COURIER_COLLECTION_ZA: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Parcel sizes by top category slug, as JSON, over the defaults in src/lib/domain/parcels.ts. */
    PARCEL_SIZES: z.preprocess(emptyToUndefined, z.string().optional()),
  })
  .superRefine((c, ctx) => {
    if (c.PAYMENT_PROVIDER === 'paystack' && !c.PAYSTACK_SECRET_KEY && !c.PAYSTACK_SECRET_KEY_NG) {
      ctx.addIssue({ code: 'custom', path: ['PAYSTACK_SECRET_KEY'], message: 'is required when PAYMENT_PROVIDER=paystack (PAYSTACK_SECRET_KEY_NG, or PAYSTACK_SECRET_KEY for Nigeria)' });
    }
    if (c.SMS_PROVIDER === 'clickatell' && !c.CLICKATELL_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['CLICKATELL_API_KEY'], message: 'is required when SMS_PROVIDER=clickatell' });
    }
    if (c.WHATSAPP === 'cloud') {
      for (const key of ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const) {
        if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when WHATSAPP=cloud' });
      }
    }
    try {
      parseAddressList(c.METRICS_ALLOW);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_ALLOW'], message: `${(err as Error).message} (use a list of IPs/CIDRs)` });
    }
    try {
      parseProxyTrust(c.TRUST_PROXY);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['TRUST_PROXY'], message: `${(err as Error).message} (use a hop count or a list of IPs/CIDRs)` });
    }
    for (const code of MARKET_CODES) {
      const collection = jsonSetting(c[`COURIER_COLLECTION_${code}`], courierCollectionAddress);
      if (!collection.ok) ctx.addIssue({ code: 'custom', path: [`COURIER_COLLECTION_${code}`], message: collection.message });
    }
    const sizes = jsonSetting(c.PARCEL_SIZES, parcelSizes);
    if (!sizes.ok) ctx.addIssue({ code: 'custom', path: ['PARCEL_SIZES'], message: sizes.message });
    if (c.COURIER_NG === 'shipbubble' && !c.SHIPBUBBLE_API_KEY) ctx.addIssue({ code: 'custom', path: ['SHIPBUBBLE_API_KEY'], message: 'is required when COURIER_NG=shipbubble' });
    if (c.LOCKERS_ZA === 'pudo' && !c.PUDO_API_KEY) ctx.addIssue({ code: 'custom', path: ['PUDO_API_KEY'], message: 'is required when LOCKERS_ZA=pudo' });
    if (c.COURIER_ZA === 'shiplogic' && !c.SHIPLOGIC_API_KEY && !(c.SHIPLOGIC_ACCESS_KEY_ID && c.SHIPLOGIC_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['SHIPLOGIC_API_KEY'], message: 'is required when COURIER_ZA=shiplogic (or SHIPLOGIC_ACCESS_KEY_ID and SHIPLOGIC_SECRET_ACCESS_KEY)' });
    }
    // The site's address cannot name a port that is only picked when the server starts.
    if (c.PORT === 0 && !c.PUBLIC_SITE_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_SITE_URL'], message: 'is required when PORT=0 (the port is picked at start)' });
    if (c.STORE_MODE === 'live') {
      const live = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (c.PAYMENT_PROVIDER !== 'paystack') live('PAYMENT_PROVIDER', 'must be paystack when STORE_MODE=live (simulated payments give goods away)');
      if (!c.SMTP_URL) live('SMTP_URL', 'is required when STORE_MODE=live (shoppers must receive their codes and receipts)');
      if (!c.LINK_SIGNING_SECRET) live('LINK_SIGNING_SECRET', 'is required when STORE_MODE=live (it signs the confirm and unsubscribe links in mails; 32 characters or more, e.g. openssl rand -base64 48)');
      if (!c.PUBLIC_SITE_URL?.startsWith('https://')) live('PUBLIC_SITE_URL', 'must be an https:// URL when STORE_MODE=live');
      if (c.SCRYPT_LOG2_N < PRODUCTION_SCRYPT_LOG2_N) live('SCRYPT_LOG2_N', `must be at least ${PRODUCTION_SCRYPT_LOG2_N} when STORE_MODE=live (a cheaper hash lets a stolen database's passwords be guessed faster)`);
      // Pay on delivery needs a verified mobile number: its codes go by text message.
      // Shoppers who choose WhatsApp would hear nothing from an outbox nobody reads.
      if (c.LOCKERS_ZA === 'demo') live('LOCKERS_ZA', 'must be pudo or none when STORE_MODE=live (the demo lockers are not real)');
      if (c.WHATSAPP === 'outbox') live('WHATSAPP', 'must be cloud or off when STORE_MODE=live (the outbox sends nothing)');
      if (c.PAY_ON_DELIVERY === 'on' && c.SMS_PROVIDER === 'outbox') live('SMS_PROVIDER', 'must be clickatell when STORE_MODE=live and PAY_ON_DELIVERY=on (pay on delivery needs phone codes sent by text message)');
      // Every market charges in its own currency through its own account: a missing key would
      // leave a market's shoppers unable to pay.
      const keys = paystackKeysFrom({ PAYSTACK_SECRET_KEY: c.PAYSTACK_SECRET_KEY, PAYSTACK_SECRET_KEY_NG: c.PAYSTACK_SECRET_KEY_NG, PAYSTACK_SECRET_KEY_ZA: c.PAYSTACK_SECRET_KEY_ZA });
      for (const code of MARKET_CODES) {
        if (c.PAYMENT_PROVIDER === 'paystack' && !keys[code]) live(`PAYSTACK_SECRET_KEY_${code}`, `is required when STORE_MODE=live (${code} shoppers pay through that market's Paystack account)`);
        // A real courier collects from the store: without the address it would book nothing.
        if (c[`COURIER_${code}`] !== 'manual' && !c[`COURIER_COLLECTION_${code}`]) live(`COURIER_COLLECTION_${code}`, `is required when STORE_MODE=live and COURIER_${code}=${c[`COURIER_${code}`]} (the courier collects parcels there)`);
      }
      // Tracking webhooks without a secret could not be told from forgeries.
      // PUDO books a locker's parcel itself, collecting it at the store's door.
      if (c.LOCKERS_ZA === 'pudo' && !c.COURIER_COLLECTION_ZA) live('COURIER_COLLECTION_ZA', 'is required when STORE_MODE=live and LOCKERS_ZA=pudo (PUDO collects locker parcels there)');
      if (c.COURIER_ZA === 'shiplogic' && !c.SHIPLOGIC_WEBHOOK_SECRET) live('SHIPLOGIC_WEBHOOK_SECRET', 'is required when STORE_MODE=live and COURIER_ZA=shiplogic (it proves tracking webhooks come from ShipLogic)');
    }
  });

export type Config = Omit<z.infer<typeof configSchema>, 'PUBLIC_SITE_URL'> & {
  PUBLIC_SITE_URL: string;
  /** Whether PUBLIC_SITE_URL was set (then it is the public origin, whatever a proxy forwards). */
  siteUrlExplicit: boolean;
  /** Whether the dev outbox pages and API are reachable (demo mode only). */
  devMailboxEnabled: boolean;
  /** Whether the demo shopper is seeded and the demo notice shown. */
  demo: boolean;
  /** The WhatsApp channel: WHATSAPP, or its default for the mode (outbox in demo, off in live). */
  whatsapp: 'outbox' | 'cloud' | 'off';
  /** The couriers' lockers offered in South Africa: LOCKERS_ZA, or its default for the mode (demo lockers in demo, none in live). */
  lockersZA: 'none' | 'pudo' | 'demo';
  /** Former setting names still set (RENAMED_SETTINGS): the server warns about each at start-up. */
  renamedSettings: { from: string; to: string }[];
  /**
   * The configured site is https. Requests use their public origin instead (Astro.locals.publicOrigin,
   * the same whenever PUBLIC_SITE_URL is set); this is for what happens outside a request's context.
   */
  secureCookies: boolean;
  proxyTrust: ProxyTrust;
  metricsAllow: BlockList;
  /** Each market's Paystack secret key (a market without one cannot take Paystack payments). */
  paystackSecretKeys: Partial<Record<MarketCode, string>>;
  /** Each market's courier and where it collects the parcels (null when not set: demo, manual). */
  couriers: Record<MarketCode, { name: CourierName; collection: CourierAddress | null }>;
  /** Parcel sizes by top category slug (always with `default`): the defaults under PARCEL_SIZES. */
  parcelSizes: Record<string, ParcelSize>;
  /**
   * The key of signed links in mails (src/lib/server/infra/signing.ts): LINK_SIGNING_SECRET, which a
   * live store must set. A demo store without it derives one from its database and site, the same
   * on every app server of one store, so its links work on all of them without any state; being
   * derived from settings rather than random, it keeps demo data out of casual reach, no more.
   */
  linkSecret: string;
};

export class ConfigError extends Error {}

export function parseConfig(given: Record<string, string | undefined>): Config {
  const { env, renamed } = withRenamedSettings(given);
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = result.data;
  const paystackSecretKeys = paystackKeysFrom(env);
  const siteUrl = (c.PUBLIC_SITE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  const demo = c.STORE_MODE === 'demo';
  return {
    ...c,
    PUBLIC_SITE_URL: siteUrl,
    siteUrlExplicit: c.PUBLIC_SITE_URL !== undefined,
    demo,
    devMailboxEnabled: demo,
    whatsapp: c.WHATSAPP ?? (demo ? 'outbox' : 'off'),
    lockersZA: c.LOCKERS_ZA ?? (demo ? 'demo' : 'none'),
    renamedSettings: renamed,
    secureCookies: siteUrl.startsWith('https://'),
    proxyTrust: parseProxyTrust(c.TRUST_PROXY),
    metricsAllow: parseAddressList(c.METRICS_ALLOW),
    paystackSecretKeys,
    couriers: couriersFrom(c),
    parcelSizes: { ...DEFAULT_PARCEL_SIZES, ...(jsonSetting(c.PARCEL_SIZES, parcelSizes) as { ok: true; value: Record<string, ParcelSize> | null }).value },
    linkSecret: c.LINK_SIGNING_SECRET ?? demoLinkSecret(c.DATABASE_URL ?? resolve(c.DATA_DIR), siteUrl),
  };
}

function couriersFrom(c: z.infer<typeof configSchema>): Config['couriers'] {
  const entry = (code: MarketCode) => {
    const collection = (jsonSetting(c[`COURIER_COLLECTION_${code}`], courierCollectionAddress) as { ok: true; value: z.infer<typeof courierCollectionAddress> | null }).value;
    return { name: c[`COURIER_${code}`] as CourierName, collection: collection ? { ...collection, country: code } : null };
  };
  return { NG: entry('NG'), ZA: entry('ZA') };
}

function demoLinkSecret(database: string, siteUrl: string): string {
  return createHash('sha256').update(['ml-demo-link-secret-v1', database, siteUrl].join('\0')).digest('base64url');
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
