import { describe, expect, it } from 'vitest';
import { ALL_MARKETS, DEFAULT_MARKET, marketLabel, MARKETS, parseMarket, resolveMarket } from '@/lib/domain/markets';
import { addMoney, CurrencyMismatch, formatMoney, money, sumMoney, timesMoney } from '@/lib/domain/money';
import { pickupLocationForMarket } from '@/lib/domain/shipping';

describe('markets', () => {
  it('has Nigeria in naira and South Africa in rand, Nigeria by default', () => {
    expect(MARKETS.NG).toMatchObject({ currency: 'NGN', symbol: '₦', locale: 'en-NG', countryName: 'Nigeria', pickupCity: 'Lagos' });
    expect(MARKETS.ZA).toMatchObject({ currency: 'ZAR', symbol: 'R', locale: 'en-ZA', countryName: 'South Africa', pickupCity: 'Johannesburg' });
    expect(DEFAULT_MARKET).toBe('NG');
    expect(marketLabel('NG')).toBe('Nigeria (₦ NGN)');
    expect(marketLabel('ZA')).toBe('South Africa (R ZAR)');
  });

  it('every market has a pickup store in its own country and city', () => {
    for (const m of ALL_MARKETS) {
      const pickup = pickupLocationForMarket(m.code);
      expect(pickup.country).toBe(m.country);
      expect(pickup.city + pickup.state + pickup.address).toContain(m.pickupCity === 'Lagos' ? 'Ikoyi' : m.pickupCity);
    }
  });

  it('resolves the market: URL, then cookie, then the shopper country, then Nigeria', () => {
    expect(resolveMarket({})).toBe('NG');
    expect(resolveMarket({ country: 'south_africa' })).toBe('ZA');
    expect(resolveMarket({ cookie: 'NG', country: 'south_africa' })).toBe('NG');
    expect(resolveMarket({ query: 'za', cookie: 'NG' })).toBe('ZA');
    expect(resolveMarket({ query: 'XX', cookie: 'bogus' })).toBe('NG');
    expect(parseMarket('__proto__')).toBeNull();
    expect(parseMarket('toString')).toBeNull();
  });

  it('formats each currency with its market locale grouping', () => {
    expect(formatMoney(250000, 'NGN')).toBe('₦250,000');
    expect(formatMoney(12500, 'ZAR')).toBe('R\u00a012\u00a0500');
    expect(formatMoney(12500.5, 'ZAR')).toBe('R\u00a012\u00a0500,50');
  });
});

describe('money never mixes currencies', () => {
  it('adds and sums amounts of one currency in integer minor units', () => {
    expect(addMoney(money(150, 'ZAR'), money(250, 'ZAR'))).toEqual({ minor: 400, currency: 'ZAR' });
    expect(sumMoney('NGN', [money(1, 'NGN'), money(2, 'NGN'), timesMoney(money(3, 'NGN'), 3)])).toEqual({ minor: 12, currency: 'NGN' });
    expect(sumMoney('ZAR', [])).toEqual({ minor: 0, currency: 'ZAR' });
  });

  it('refuses to add naira to rand', () => {
    expect(() => addMoney(money(100, 'NGN'), money(100, 'ZAR'))).toThrow(CurrencyMismatch);
    expect(() => sumMoney('ZAR', [money(100, 'ZAR'), money(100, 'NGN')])).toThrow(/NGN/);
    expect(() => sumMoney('NGN', [money(100, 'ZAR')])).toThrow(CurrencyMismatch);
  });

  it('refuses fractions of a minor unit', () => {
    expect(() => money(1.5, 'NGN')).toThrow(RangeError);
    expect(() => timesMoney(money(100, 'NGN'), 1.5)).toThrow(RangeError);
  });
});

describe('the route cache keys on the market', () => {
  it('keeps NG and ZA pages apart whether the market comes from the URL or the cookie', async () => {
    const { cacheKey } = await import('@/lib/server/storefront/page-cache');
    const req = (url: string, cookie?: string) => new Request(`http://localhost${url}`, cookie ? { headers: { cookie } } : {});
    expect(cacheKey(req('/collection?page=2'))).toBe(cacheKey(req('/collection?page=2&market=NG')));
    expect(cacheKey(req('/collection?page=2'))).not.toBe(cacheKey(req('/collection?page=2&market=ZA')));
    expect(cacheKey(req('/collection?page=2', 'ml_market=ZA'))).toBe(cacheKey(req('/collection?page=2&market=ZA')));
    expect(cacheKey(req('/collection?market=NG', 'a=b; ml_market=ZA'))).toBe(cacheKey(req('/collection')));
    expect(cacheKey(req('/', 'ml_market=bogus'))).toBe(cacheKey(req('/')));
  });
});

describe("each market's Paystack account", () => {
  it('reads PAYSTACK_SECRET_KEY_<MARKET>, with PAYSTACK_SECRET_KEY as Nigeria fallback', async () => {
    const { parseConfig } = await import('@/lib/server/infra/config');
    expect(parseConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_ng_old' }).paystackSecretKeys).toEqual({ NG: 'sk_ng_old' });
    expect(parseConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'old', PAYSTACK_SECRET_KEY_NG: 'ng', PAYSTACK_SECRET_KEY_ZA: 'za' }).paystackSecretKeys).toEqual({ NG: 'ng', ZA: 'za' });
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY_ZA: 'za' })).toThrow(/PAYSTACK_SECRET_KEY/);
  });

  it('finds the account that signed a webhook by trying every market key', async () => {
    const { paystackSignature, paystackSignerOf } = await import('@/lib/server/payments/paystack');
    const keys = { NG: 'sk_ng', ZA: 'sk_za' };
    const body = '{"event":"charge.success"}';
    expect(paystackSignerOf(body, paystackSignature(body, 'sk_za'), keys)).toBe('ZA');
    expect(paystackSignerOf(body, paystackSignature(body, 'sk_ng'), keys)).toBe('NG');
    expect(paystackSignerOf(body, paystackSignature(body, 'sk_other'), keys)).toBeNull();
    expect(paystackSignerOf(body, null, keys)).toBeNull();
  });
});
