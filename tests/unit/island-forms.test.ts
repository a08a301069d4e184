import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const toasts = vi.hoisted(() => ({ success: [] as string[], error: [] as string[] }));
vi.mock('@/lib/client/toast', () => ({
  toast: {
    success: (text: string) => void toasts.success.push(text),
    error: (text: string) => void toasts.error.push(text),
  },
  toastsShown: () => Promise.resolve(),
}));

const { sendAndShow } = await import('@/lib/client/forms');
const { TOAST_THEN_NAVIGATE_MS } = await import('@/lib/client/navigate');
const stores = await import('@/lib/client/stores');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx|astro)$/.test(name) ? [path] : [];
  });
}

const answer = (ok: boolean, status: number, body: unknown) => async () => ({ ok, status, body: body as any });

describe('island forms: the one way to send a form and show its outcome', () => {
  const assign = vi.fn();
  beforeEach(() => {
    toasts.success.length = 0;
    toasts.error.length = 0;
    assign.mockReset();
    vi.useFakeTimers();
    vi.stubGlobal('window', { location: { assign } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the success toast, then goes to the next page after the one shared pause', async () => {
    const sent = await sendAndShow(answer(true, 200, { status: true, message: 'Saved by the server' }), {
      failed: 'Failed',
      onSuccess: () => ({ toast: 'Address saved successfully!', next: '/address-history' }),
    });
    expect(sent).toBe('navigating');
    expect(toasts.success).toEqual(['Address saved successfully!']);
    vi.advanceTimersByTime(TOAST_THEN_NAVIGATE_MS - 1);
    expect(assign).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(assign).toHaveBeenCalledWith('/address-history');
  });

  it("shows the server's message when the island names no text, and goes at once when there is no toast", async () => {
    await sendAndShow(answer(true, 200, { status: true, message: 'Thank you for subscribing.' }), { failed: 'Failed' });
    expect(toasts.success).toEqual(['Thank you for subscribing.']);
    const sent = await sendAndShow(answer(true, 200, { status: true }), { failed: 'Failed', onSuccess: () => ({ toast: null, next: 'https://pay.example/x' }) });
    expect(sent).toBe('navigating');
    expect(assign).toHaveBeenCalledWith('https://pay.example/x');
  });

  it("shows a refusal's server message, else the island's text, and undoes what it showed ahead", async () => {
    const undo = vi.fn();
    expect(await sendAndShow(answer(false, 400, { status: false, message: 'Invalid email format' }), { failed: 'Login failed', onFailure: undo })).toBe('failed');
    expect(await sendAndShow(answer(false, 500, { status: false }), { failed: 'Login failed', onFailure: undo })).toBe('failed');
    expect(toasts.error).toEqual(['Invalid email format', 'Login failed']);
    expect(undo).toHaveBeenCalledTimes(2);
    expect(toasts.success).toEqual([]);
  });

  it('shows the unreachable text when no answer comes, and no toast when the refusal says none', async () => {
    await sendAndShow(
      async () => {
        throw new Error('offline');
      },
      { failed: 'Login failed', unreachable: 'An error occurred. Please try again.' },
    );
    await sendAndShow(answer(false, 401, { status: false, message: 'Session expired. Please log in again.' }), { failed: 'x', refusal: () => null });
    expect(toasts.error).toEqual(['An error occurred. Please try again.']);
  });
});

describe('client state: each store module owns its stores', () => {
  it('changes the stores through named actions', () => {
    stores.cartChanged({ id: 'cart-1', items: [1, 2] });
    expect([stores.$cartCount.get(), stores.$cartId.get()]).toEqual([2, 'cart-1']);
    stores.cartEmptied();
    expect(stores.$cartCount.get()).toBe(0);
    stores.signedIn({ userId: 'u', firstName: 'A', lastName: 'B', email: 'a@b.c', image: null, country: 'nigeria' });
    expect(stores.$loggedIn.get()).toBe(true);
    stores.signedOut();
    expect([stores.$profile.get(), stores.$cartId.get(), stores.$cartCount.get()]).toEqual([null, null, 0]);
  });

  it('nothing outside src/lib/client/stores.ts calls .set on a store', () => {
    const offenders = files('src')
      .filter((f) => !f.endsWith(join('lib', 'client', 'stores.ts')))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ f, i, line })))
      .filter(({ line }) => /\$[A-Za-z]+\.set\(/.test(line))
      .map(({ f, i }) => `${f}:${i + 1}`);
    expect(offenders).toEqual([]);
  });

  it('no island waits its own time before navigating: they share navigate.ts', () => {
    const offenders = files('src')
      .filter((f) => /setTimeout\(\(\) => (window\.)?location\.(assign|replace)/.test(readFileSync(f, 'utf8')))
      .filter((f) => !f.endsWith(join('lib', 'client', 'navigate.ts')));
    expect(offenders).toEqual([]);
  });
});
