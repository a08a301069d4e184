/** HTTP helpers shared by the cart, checkout, orders, favourites and Paystack API tests. */
import { accountClient } from './account-client';

export const DEMO = { email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' };

export interface Variant {
  productId: number;
  name: string;
  price: number;
  color: string | null;
  size: string | null;
  stock: number;
}

export function buyingClient(baseUrl: string) {
  const accounts = accountClient(baseUrl);
  const { call } = accounts;

  async function login(email = DEMO.email, password = DEMO.password): Promise<{ token: string; id: string }> {
    const res = await call('POST', '/user-auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    return { token: res.body.data.token, id: res.body.data.user.id };
  }

  /** Variants with at least `minStock` units, each from a different product, in a stable order. */
  async function variants(opts: { minStock?: number; sized?: boolean; count?: number; skip?: number; alsoSoldIn?: 'ZA' } = {}): Promise<Variant[]> {
    const { minStock = 1, count = 1, skip = 0 } = opts;
    const list = await call('GET', '/products?limit=100');
    const found: Variant[] = [];
    let skipped = 0;
    for (const p of list.body.data.docs as { id: number; sizeNames: string[] }[]) {
      if (opts.sized !== undefined && opts.sized !== p.sizeNames.length > 0) continue;
      const detail = await call('GET', `/products/${p.id}`);
      const v = (detail.body.data.variants as { size: string | null; color: string | null; stock: number; price: number }[]).find((x) => x.stock >= minStock);
      if (!v) continue;
      if (opts.alsoSoldIn && (await call('GET', `/products/${p.id}?market=${opts.alsoSoldIn}`)).status !== 200) continue;
      if (skipped++ < skip) continue;
      found.push({ productId: p.id, name: detail.body.data.name, price: v.price, color: v.color, size: v.size, stock: v.stock });
      if (found.length === count) return found;
    }
    throw new Error('not enough variants in stock');
  }

  async function variant(opts: { minStock?: number; sized?: boolean; skip?: number } = {}): Promise<Variant> {
    return (await variants({ ...opts, count: 1 }))[0]!;
  }

  async function stockOf(v: Pick<Variant, 'productId' | 'color' | 'size'>): Promise<number> {
    const detail = await call('GET', `/products/${v.productId}`);
    return detail.body.data.variants.find((x: any) => x.color === v.color && x.size === v.size).stock;
  }

  const add = (token: string, v: Pick<Variant, 'productId' | 'color' | 'size'>, quantity = 1, extra: Record<string, unknown> = {}) =>
    call('POST', '/cart/add-to-cart', { token, body: { productId: v.productId, color: v.color, size: v.size, quantity, ...extra } });

  const cart = async (token: string, userId: string) => (await call('GET', `/cart/${userId}`, { token })).body.data;

  /** Empties a cart through the API. */
  async function clear(token: string, userId: string) {
    const c = await cart(token, userId);
    for (const i of c.items) await call('DELETE', '/cart/remove-product', { token, body: { productId: i.productId, color: i.color, size: i.size } });
  }

  /**
   * Answers the simulated payment page like a browser would (form POST), returning where it
   * redirects: Pay (by card unless `channel` says), Decline, or "I have sent the money" (sent: a bank transfer).
   */
  async function answerSimulated(reference: string, outcome: 'pay' | 'decline' | 'sent', channel?: string): Promise<string> {
    const res = await fetch(`${baseUrl}/pay/simulated/${encodeURIComponent(reference)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
      body: `outcome=${outcome}${channel ? `&channel=${channel}` : ''}`,
      redirect: 'manual',
    });
    if (res.status !== 303) throw new Error(`simulated page answered ${res.status}`);
    return res.headers.get('location')!;
  }

  return { ...accounts, login, variants, variant, stockOf, add, cart, clear, answerSimulated };
}
