import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '@/lib/server/accounts/passwords';
import { parseConfig, PRODUCTION_SCRYPT_LOG2_N } from '@/lib/server/infra/config';
import { TEST_SCRYPT_LOG2_N } from '../support/test-env';

const LIVE = {
  STORE_MODE: 'live',
  PAYMENT_PROVIDER: 'paystack',
  PAYSTACK_SECRET_KEY_NG: 'sk_live_x',
  PAYSTACK_SECRET_KEY_ZA: 'sk_live_za',
  SMTP_URL: 'smtp://mail.example:587',
  PUBLIC_SITE_URL: 'https://shop.example',
  LINK_SIGNING_SECRET: 'a-live-secret-of-at-least-32-characters',
};

describe('password hashing cost', () => {
  it('is OWASP scrypt (N=2^17, r=8, p=1) unless set, and a live store refuses less', () => {
    expect(PRODUCTION_SCRYPT_LOG2_N).toBe(17);
    expect(parseConfig({}).SCRYPT_LOG2_N).toBe(17);
    expect(parseConfig(LIVE).SCRYPT_LOG2_N).toBe(17);
    expect(parseConfig({ ...LIVE, SCRYPT_LOG2_N: '18' }).SCRYPT_LOG2_N).toBe(18);
    expect(() => parseConfig({ ...LIVE, SCRYPT_LOG2_N: '16' })).toThrow(/SCRYPT_LOG2_N: must be at least 17 when STORE_MODE=live/);
    expect(parseConfig({ SCRYPT_LOG2_N: '10' }).SCRYPT_LOG2_N).toBe(10);
    expect(() => parseConfig({ SCRYPT_LOG2_N: '9' })).toThrow(/SCRYPT_LOG2_N/);
    expect(() => parseConfig({ SCRYPT_LOG2_N: 'cheap' })).toThrow(/SCRYPT_LOG2_N/);
  });

  it('the production cost: a hash names N=2^17 and takes a real share of a core to make and to check', async () => {
    const started = performance.now();
    const hash = await hashPassword('Lagos-2026!', PRODUCTION_SCRYPT_LOG2_N);
    const hashMs = performance.now() - started;
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    const checkStarted = performance.now();
    expect(await verifyPassword('Lagos-2026!', hash, 'sign-in')).toBe(true);
    const checkMs = performance.now() - checkStarted;
    expect(await verifyPassword('Lagos-2026?', hash, 'sign-in')).toBe(false);
    // The test cost for comparison: the gap is what every test sign-up and sign-in saves.
    const cheapStarted = performance.now();
    const cheap = await hashPassword('Lagos-2026!', Number(TEST_SCRYPT_LOG2_N));
    const cheapMs = performance.now() - cheapStarted;
    console.log(`scrypt N=2^17: hash ${hashMs.toFixed(0)} ms, check ${checkMs.toFixed(0)} ms; N=2^10: hash ${cheapMs.toFixed(1)} ms`);
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    // 128 times the memory and work: even on a loaded machine it shows (about 100 ms against 1 ms alone).
    expect(hashMs).toBeGreaterThan(10 * cheapMs);
    expect(checkMs).toBeGreaterThan(10 * cheapMs);
  }, 60_000);

  it("new hashes use the store's setting, and a hash made at another cost keeps verifying", async () => {
    // The test processes run at the test cost (tests/support/test-env.ts).
    const current = await hashPassword('Lagos-2026!');
    expect(current.startsWith(`scrypt$${2 ** Number(process.env.SCRYPT_LOG2_N)}$8$1$`)).toBe(true);
    expect(process.env.SCRYPT_LOG2_N).toBe(TEST_SCRYPT_LOG2_N);
    const older = await hashPassword('Lagos-2026!', 12);
    expect(older.startsWith('scrypt$4096$8$1$')).toBe(true);
    expect(await verifyPassword('Lagos-2026!', older, 'sign-in')).toBe(true);
    expect(await verifyPassword('Lagos-2026!', current, 'account')).toBe(true);
    expect(await verifyPassword('wrong-pass', older, 'sign-in')).toBe(false);
  });
});
