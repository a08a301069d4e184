import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/lib/server/config';

describe('configuration', () => {
  it('has working defaults for the embedded store', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({ PORT: 4321, DATA_DIR: './data', PAYMENT_PROVIDER: 'simulated', STORE_CURRENCY: 'NGN' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.devMailboxEnabled).toBe(true);
  });

  it('names the variable when a value is bad', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => parseConfig({ DATABASE_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => parseConfig({ STORE_CURRENCY: 'USD' })).toThrow(/STORE_CURRENCY/);
  });

  it('requires a Paystack key with the Paystack provider', () => {
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'paystack' })).toThrow(/PAYSTACK_SECRET_KEY/);
    expect(parseConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_x' }).PAYMENT_PROVIDER).toBe('paystack');
  });

  it('closes the dev mailbox in production unless asked', () => {
    expect(parseConfig({ NODE_ENV: 'production' }).devMailboxEnabled).toBe(false);
    expect(parseConfig({ NODE_ENV: 'production', STORE_DEV_MAILBOX: 'true' }).devMailboxEnabled).toBe(true);
  });
});
