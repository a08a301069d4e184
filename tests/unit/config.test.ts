import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@/lib/server/infra/config';

describe('configuration', () => {
  it('has working defaults for the embedded store', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({ PORT: 4321, DATA_DIR: './data', PAYMENT_PROVIDER: 'simulated' });
    // Markets replace the one store currency (src/lib/domain/markets.ts).
    expect(c).not.toHaveProperty('STORE_CURRENCY');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.devMailboxEnabled).toBe(true);
  });

  it('names the variable when a value is bad', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => parseConfig({ DATABASE_URL: 'not a url' })).toThrow(ConfigError);
  });

  it('requires a Paystack key with the Paystack provider', () => {
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'paystack' })).toThrow(/PAYSTACK_SECRET_KEY/);
    expect(parseConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_x' }).PAYMENT_PROVIDER).toBe('paystack');
  });

  it('never depends on NODE_ENV: the demo keeps its outbox in production mode', () => {
    const c = parseConfig({ NODE_ENV: 'production' });
    expect(c.devMailboxEnabled).toBe(true);
    expect(c.secureCookies).toBe(false);
    expect(c.STORE_MODE).toBe('demo');
  });

  it('derives the site URL from PORT and Secure cookies from its scheme', () => {
    expect(parseConfig({}).PUBLIC_SITE_URL).toBe('http://localhost:4321');
    expect(parseConfig({ PORT: '5000' }).PUBLIC_SITE_URL).toBe('http://localhost:5000');
    expect(parseConfig({ PUBLIC_SITE_URL: 'https://shop.example/' })).toMatchObject({ PUBLIC_SITE_URL: 'https://shop.example', secureCookies: true });
  });

  it('takes PORT=0 (any free port) only with a site URL that does not name the port', () => {
    expect(() => parseConfig({ PORT: '0' })).toThrow(/PUBLIC_SITE_URL: is required when PORT=0/);
    expect(parseConfig({ PORT: '0', PUBLIC_SITE_URL: 'https://shop.example' })).toMatchObject({ PORT: 0, PUBLIC_SITE_URL: 'https://shop.example' });
  });

  it('refuses a live store without Paystack, SMTP and an https site, naming each variable', () => {
    let message = '';
    try {
      parseConfig({ STORE_MODE: 'live', PUBLIC_SITE_URL: 'http://shop.example' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PAYMENT_PROVIDER/);
    expect(message).toMatch(/SMTP_URL/);
    expect(message).toMatch(/PUBLIC_SITE_URL/);
    expect(message).toMatch(/LINK_SIGNING_SECRET/);
    const settings = {
      STORE_MODE: 'live',
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_live_x',
      SMTP_URL: 'smtp://mail.example:587',
      PUBLIC_SITE_URL: 'https://shop.example',
      LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters',
    };
    // Each market pays through its own Paystack account: without South Africa's key a live store refuses to start.
    expect(() => parseConfig(settings)).toThrow(/PAYSTACK_SECRET_KEY_ZA: is required when STORE_MODE=live/);
    const live = parseConfig({ ...settings, PAYSTACK_SECRET_KEY_ZA: 'sk_live_za' });
    expect(live.paystackSecretKeys).toEqual({ NG: 'sk_live_x', ZA: 'sk_live_za' });
    expect(live).toMatchObject({ demo: false, devMailboxEnabled: false, secureCookies: true, linkSecret: 'a-live-secret-of-at-least-32-characters' });
    expect(() => parseConfig({ ...settings, PAYSTACK_SECRET_KEY_ZA: 'sk_live_za', LINK_SIGNING_SECRET: 'too-short' })).toThrow(/LINK_SIGNING_SECRET: must be at least 32 characters/);
  });

  it('signs mail links with LINK_SIGNING_SECRET, or in a demo store with a key derived from its database and site', () => {
    const a = parseConfig({ DATA_DIR: '/srv/a' }).linkSecret;
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(parseConfig({ DATA_DIR: '/srv/a' }).linkSecret).toBe(a);
    expect(parseConfig({ DATA_DIR: '/srv/b' }).linkSecret).not.toBe(a);
    expect(parseConfig({ DATA_DIR: '/srv/a', PUBLIC_SITE_URL: 'https://other.example' }).linkSecret).not.toBe(a);
    // Two app servers of one PostgreSQL store sign alike.
    const pg = { DATABASE_URL: 'postgres://app:pw@db.internal/store', PUBLIC_SITE_URL: 'https://shop.example' };
    expect(parseConfig({ ...pg, DATA_DIR: '/srv/1' }).linkSecret).toBe(parseConfig({ ...pg, DATA_DIR: '/srv/2' }).linkSecret);
  });

  it('refuses a live store with pay on delivery but no SMS provider (its phone codes go by text)', () => {
    const live = { STORE_MODE: 'live', PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY_NG: 'sk_live_x', PAYSTACK_SECRET_KEY_ZA: 'sk_live_za', SMTP_URL: 'smtp://mail.example:587', PUBLIC_SITE_URL: 'https://shop.example', LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters' };
    expect(parseConfig(live)).toMatchObject({ PAY_ON_DELIVERY: 'off', SMS_PROVIDER: 'outbox' });
    expect(() => parseConfig({ ...live, PAY_ON_DELIVERY: 'on' })).toThrow(/SMS_PROVIDER: must be clickatell when STORE_MODE=live and PAY_ON_DELIVERY=on/);
    expect(() => parseConfig({ ...live, PAY_ON_DELIVERY: 'on', SMS_PROVIDER: 'clickatell' })).toThrow(/CLICKATELL_API_KEY: is required when SMS_PROVIDER=clickatell/);
    expect(parseConfig({ ...live, PAY_ON_DELIVERY: 'on', SMS_PROVIDER: 'clickatell', CLICKATELL_API_KEY: 'ck_live' })).toMatchObject({ PAY_ON_DELIVERY: 'on', SMS_PROVIDER: 'clickatell' });
    // A demo store may offer it with texts in the dev outbox.
    expect(parseConfig({ PAY_ON_DELIVERY: 'on' })).toMatchObject({ PAY_ON_DELIVERY: 'on', SMS_PROVIDER: 'outbox' });
    expect(() => parseConfig({ PAY_ON_DELIVERY: 'yes' })).toThrow(/PAY_ON_DELIVERY/);
  });

  it('chooses each market\'s courier (manual by default) and refuses a real one without its key', () => {
    const c = parseConfig({});
    expect(c.couriers).toEqual({ NG: { name: 'manual', collection: null }, ZA: { name: 'manual', collection: null } });
    expect(c.parcelSizes.default).toEqual({ weightGrams: 1500, lengthCm: 40, widthCm: 30, heightCm: 15 });
    expect(() => parseConfig({ COURIER_NG: 'shipbubble' })).toThrow(/SHIPBUBBLE_API_KEY: is required when COURIER_NG=shipbubble/);
    expect(() => parseConfig({ COURIER_ZA: 'shiplogic' })).toThrow(/SHIPLOGIC_API_KEY: is required when COURIER_ZA=shiplogic/);
    expect(() => parseConfig({ COURIER_NG: 'shiplogic' })).toThrow(/COURIER_NG/);
    expect(parseConfig({ COURIER_NG: 'shipbubble', SHIPBUBBLE_API_KEY: 'sb_sandbox_x' }).couriers.NG.name).toBe('shipbubble');
    // ShipLogic accounts with the original credentials sign with an access key pair instead.
    expect(() => parseConfig({ COURIER_ZA: 'shiplogic', SHIPLOGIC_ACCESS_KEY_ID: 'AKIA1' })).toThrow(/SHIPLOGIC_API_KEY: is required when COURIER_ZA=shiplogic \(or SHIPLOGIC_ACCESS_KEY_ID and SHIPLOGIC_SECRET_ACCESS_KEY\)/);
    expect(parseConfig({ COURIER_ZA: 'shiplogic', SHIPLOGIC_ACCESS_KEY_ID: 'AKIA1', SHIPLOGIC_SECRET_ACCESS_KEY: 's' })).toMatchObject({ SHIPLOGIC_AWS_REGION: 'af-south-1' });
  });

  it('reads where the courier collects and parcel sizes as JSON, naming what is wrong in them', () => {
    const collection = { name: 'Maison Luxe', phone: '+2348030000000', line1: '15 Babatunde Jose St', city: 'Lagos', region: 'Lagos' };
    expect(parseConfig({ COURIER_COLLECTION_NG: JSON.stringify(collection) }).couriers.NG.collection).toEqual({ ...collection, country: 'NG' });
    expect(() => parseConfig({ COURIER_COLLECTION_NG: '{name: Maison' })).toThrow(/COURIER_COLLECTION_NG: must be JSON/);
    expect(() => parseConfig({ COURIER_COLLECTION_ZA: JSON.stringify({ ...collection, phone: '0803' }) })).toThrow(/COURIER_COLLECTION_ZA: phone must be an E.164 number/);
    const sizes = parseConfig({ PARCEL_SIZES: '{"bags":{"weightGrams":2500,"lengthCm":50,"widthCm":40,"heightCm":25}}' }).parcelSizes;
    expect(sizes.bags).toEqual({ weightGrams: 2500, lengthCm: 50, widthCm: 40, heightCm: 25 });
    expect(sizes.shoes).toEqual({ weightGrams: 1800, lengthCm: 36, widthCm: 24, heightCm: 14 });
    expect(() => parseConfig({ PARCEL_SIZES: '{"bags":{"weightGrams":-1}}' })).toThrow(/PARCEL_SIZES: bags.weightGrams/);
  });

  it('refuses a live store with a real courier without its keys, where it collects and webhook secret', () => {
    const live = { STORE_MODE: 'live', PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY_NG: 'sk_live_x', PAYSTACK_SECRET_KEY_ZA: 'sk_live_za', SMTP_URL: 'smtp://mail.example:587', PUBLIC_SITE_URL: 'https://shop.example', LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters' };
    // The manual courier needs nothing.
    expect(parseConfig(live).couriers.NG.name).toBe('manual');
    let message = '';
    try {
      parseConfig({ ...live, COURIER_NG: 'shipbubble', COURIER_ZA: 'shiplogic' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SHIPBUBBLE_API_KEY: is required when COURIER_NG=shipbubble/);
    expect(message).toMatch(/SHIPLOGIC_API_KEY: is required when COURIER_ZA=shiplogic/);
    expect(message).toMatch(/COURIER_COLLECTION_NG: is required when STORE_MODE=live and COURIER_NG=shipbubble/);
    expect(message).toMatch(/COURIER_COLLECTION_ZA: is required when STORE_MODE=live and COURIER_ZA=shiplogic/);
    expect(message).toMatch(/SHIPLOGIC_WEBHOOK_SECRET: is required when STORE_MODE=live/);
    const collection = (city: string) => JSON.stringify({ name: 'Maison Luxe', phone: '+27110000000', line1: '16 Viljoen Street', city, region: 'GP', postalCode: '2094' });
    const ready = parseConfig({
      ...live,
      COURIER_NG: 'shipbubble',
      COURIER_ZA: 'shiplogic',
      SHIPBUBBLE_API_KEY: 'sb_prod_x',
      SHIPLOGIC_API_KEY: 'sl_live_x',
      SHIPLOGIC_WEBHOOK_SECRET: 'a-webhook-secret-of-16+',
      COURIER_COLLECTION_NG: collection('Lagos'),
      COURIER_COLLECTION_ZA: collection('Johannesburg'),
    });
    expect(ready.couriers.ZA).toMatchObject({ name: 'shiplogic', collection: { city: 'Johannesburg', country: 'ZA' } });
    expect(ready.SHIPBUBBLE_BASE_URL).toBe('https://api.shipbubble.com/v1');
  });
});

describe('WhatsApp settings', () => {
  const live = { STORE_MODE: 'live', PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY_NG: 'sk_live_x', PAYSTACK_SECRET_KEY_ZA: 'sk_live_za', SMTP_URL: 'smtp://mail.example:587', PUBLIC_SITE_URL: 'https://shop.example', LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters' };
  const keys = { WHATSAPP_TOKEN: 'EAAlive', WHATSAPP_PHONE_NUMBER_ID: '106540352242922', WHATSAPP_APP_SECRET: 'app-secret', WHATSAPP_VERIFY_TOKEN: 'verify-me-please' };

  it('keeps WhatsApp messages in the dev outbox in a demo store and offers none in a live one unless set', () => {
    expect(parseConfig({})).toMatchObject({ whatsapp: 'outbox', WHATSAPP_BASE_URL: 'https://graph.facebook.com', WHATSAPP_API_VERSION: 'v23.0' });
    expect(parseConfig(live)).toMatchObject({ whatsapp: 'off' });
    expect(parseConfig({ WHATSAPP: 'off' })).toMatchObject({ whatsapp: 'off' });
    expect(() => parseConfig({ WHATSAPP: 'sms' })).toThrow(/WHATSAPP/);
  });

  it('refuses to start with WHATSAPP=cloud without its keys, naming each, in live mode as in demo', () => {
    for (const env of [live, {}]) {
      let error = '';
      try {
        parseConfig({ ...env, WHATSAPP: 'cloud' });
      } catch (err) {
        error = (err as Error).message;
      }
      for (const key of Object.keys(keys)) expect(error).toContain(`${key}: is required when WHATSAPP=cloud`);
      expect(() => parseConfig({ ...env, ...keys, WHATSAPP: 'cloud', WHATSAPP_APP_SECRET: '' })).toThrow(/WHATSAPP_APP_SECRET: is required when WHATSAPP=cloud/);
    }
    expect(parseConfig({ ...live, ...keys, WHATSAPP: 'cloud' })).toMatchObject({ whatsapp: 'cloud', WHATSAPP_PHONE_NUMBER_ID: '106540352242922' });
    expect(() => parseConfig({ ...live, ...keys, WHATSAPP: 'cloud', WHATSAPP_PHONE_NUMBER_ID: '+2348012345678' })).toThrow(/WHATSAPP_PHONE_NUMBER_ID: must be the numeric phone number id/);
    // A live store's outbox would answer shoppers who chose WhatsApp with nothing.
    expect(() => parseConfig({ ...live, WHATSAPP: 'outbox' })).toThrow(/WHATSAPP: must be cloud or off when STORE_MODE=live/);
  });
});

describe('HTTP delivery policy', async () => {
  const { answerKind, assetCacheControl, securityHeaders, shouldCompress } = await import('@/server/http-policy');
  it('makes hashed assets immutable and other files revalidate daily', () => {
    expect(assetCacheControl('/_astro/client.Ab12.js')).toBe('public, max-age=31536000, immutable');
    expect(assetCacheControl('/favicon.svg')).toMatch(/^public, max-age=86400/);
  });
  it('compresses text, never images or encoded bodies', () => {
    for (const t of ['text/html; charset=utf-8', 'application/json', 'application/xml', 'image/svg+xml', 'text/plain', 'text/css', 'application/javascript']) {
      expect(shouldCompress(t, undefined), t).toBe(true);
    }
    expect(shouldCompress('image/avif', undefined)).toBe(false);
    expect(shouldCompress('text/html', 'br')).toBe(false);
  });
  it('sends the document-only headers with pages, the framing rule with API answers, and only nosniff (and HSTS) with scripts, styles and images', () => {
    expect(Object.keys(securityHeaders({ https: false, kind: 'document' })).sort()).toEqual(['permissions-policy', 'referrer-policy', 'x-content-type-options', 'x-frame-options']);
    expect(Object.keys(securityHeaders({ https: false, kind: 'api' })).sort()).toEqual(['x-content-type-options', 'x-frame-options']);
    expect(Object.keys(securityHeaders({ https: true, kind: 'subresource' })).sort()).toEqual(['strict-transport-security', 'x-content-type-options']);
    expect(['/_astro/client.Ab12.js', '/media/abc/320.avif'].map(answerKind)).toEqual(['subresource', 'subresource']);
    expect(['/api/v1/products', '/api/v1/cart/add-to-cart'].map(answerKind)).toEqual(['api', 'api']);
    expect(['/', '/product/2', '/apis', '/favicon.svg', '/_astrology'].map(answerKind)).toEqual(['document', 'document', 'document', 'document', 'document']);
  });

  it('still reads a setting by its former name while the new one is unset, and lists it to warn about', () => {
    const collection = { name: 'Maison Luxe', phone: '+2348030000000', line1: '15 Babatunde Jose St', city: 'Lagos', region: 'Lagos' };
    const old = parseConfig({ STORE_PICKUP_NG: JSON.stringify(collection), PICKUP_POINTS_ZA: 'none' });
    expect(old.couriers.NG.collection).toEqual({ ...collection, country: 'NG' });
    expect(old.lockersZA).toBe('none');
    expect(old.renamedSettings).toEqual([
      { from: 'PICKUP_POINTS_ZA', to: 'LOCKERS_ZA' },
      { from: 'STORE_PICKUP_NG', to: 'COURIER_COLLECTION_NG' },
    ]);
    // Its errors name the new setting.
    expect(() => parseConfig({ STORE_PICKUP_ZA: '{name: Maison' })).toThrow(/COURIER_COLLECTION_ZA: must be JSON/);
    // The new name wins when both are set.
    expect(parseConfig({ LOCKERS_ZA: 'demo', PICKUP_POINTS_ZA: 'none' }).lockersZA).toBe('demo');
    expect(parseConfig({}).renamedSettings).toEqual([]);
  });
});
