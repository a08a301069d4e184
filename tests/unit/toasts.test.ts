import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * One toast per action: a form's check, its refusal and its success are one toast that replaces
 * itself (react-hot-toast replaces a toast with the same id), and the toaster is imported with
 * the first toast a page raises.
 */
const shown = vi.hoisted(() => [] as { kind: string; text: string; id: string | undefined }[]);
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('@/lib/client/toaster-root', () => {
  loads.count += 1;
  return { show: (kind: string, text: string, id?: string) => void shown.push({ kind, text, id }) };
});
const answers = vi.hoisted(() => [] as unknown[]);
vi.mock('@/lib/client/api', () => ({ api: vi.fn(async () => answers.shift()) }));

const { toast, toastsShown } = await import('@/lib/client/toast');
const { actionToastId, submitForm } = await import('@/lib/client/form-send');

/** Enough of a <form> for submitForm: its action and its values. */
function form(action: string, values: Record<string, string> = {}) {
  return { getAttribute: (name: string) => (name === 'action' ? action : null), values } as unknown as HTMLFormElement;
}
const button = (formaction: string) => ({ getAttribute: (name: string) => (name === 'formaction' ? formaction : null) }) as unknown as HTMLElement;

/** Lets the lazily imported toaster take the toasts raised so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('toasts: one per action', () => {
  beforeEach(() => {
    shown.length = 0;
    answers.length = 0;
    vi.stubGlobal(
      'FormData',
      class {
        constructor(private readonly el: { values: Record<string, string> }) {}
        *[Symbol.iterator]() {
          yield* Object.entries(this.el.values);
        }
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("names a form's toasts by its action, without the query", () => {
    expect(actionToastId('/api/v1/cart/discount?back=%2Fcart')).toBe('form:/api/v1/cart/discount');
    expect(actionToastId('/api/v1/cart/discount?back=%2Fplace-order')).toBe(actionToastId('/api/v1/cart/discount'));
    expect(actionToastId('/api/v1/cart/discount/remove?back=%2Fcart')).not.toBe(actionToastId('/api/v1/cart/discount'));
  });

  it("gives the check's error and the success of the same form one id, so the success replaces the error", async () => {
    const add = form('/api/v1/cart/add-to-cart', { productId: '7' });
    let size: string | null = null;
    const options = { failed: 'Failed to add product to cart', check: () => (size ? null : 'Please select a size') };
    expect(await submitForm(add, null, options, () => {})).toBe('checked');
    size = 'M';
    answers.push({ ok: true, status: 200, body: { status: true, message: 'Product added to cart successfully!' } });
    expect(await submitForm(add, null, options, () => {})).toBe('succeeded');
    await settle();
    expect(shown).toEqual([
      { kind: 'error', text: 'Please select a size', id: 'form:/api/v1/cart/add-to-cart' },
      { kind: 'success', text: 'Product added to cart successfully!', id: 'form:/api/v1/cart/add-to-cart' },
    ]);
  });

  it("gives a refused code and an applied one the same id; the pressed button's formaction is its own action", async () => {
    const discount = form('/api/v1/cart/discount?back=%2Fcart', { code: 'NOPE' });
    answers.push({ ok: false, status: 400, body: { status: false, message: 'This code is not valid.' } });
    await submitForm(discount, null, { failed: 'The code could not be applied.' }, () => {});
    answers.push({ ok: true, status: 200, body: { status: true, message: 'Discount applied!' } });
    await submitForm(discount, null, { failed: 'The code could not be applied.' }, () => {});
    answers.push({ ok: true, status: 200, body: { status: true, message: 'Discount removed' } });
    await submitForm(discount, button('/api/v1/cart/discount/remove?back=%2Fcart'), { failed: 'The code could not be applied.' }, () => {});
    await settle();
    expect(shown.map((t) => [t.text, t.id])).toEqual([
      ['This code is not valid.', 'form:/api/v1/cart/discount'],
      ['Discount applied!', 'form:/api/v1/cart/discount'],
      ['Discount removed', 'form:/api/v1/cart/discount/remove'],
    ]);
  });

  it('imports the toaster once, with the first toast, and shows toasts in the order raised', async () => {
    toast.error('One', { id: 'a' });
    toast.success('Two', { id: 'a' });
    toast.success('Three');
    await settle();
    expect(shown).toEqual([
      { kind: 'error', text: 'One', id: 'a' },
      { kind: 'success', text: 'Two', id: 'a' },
      { kind: 'success', text: 'Three', id: undefined },
    ]);
    expect(loads.count).toBe(1);
  });

  it('says when the toasts raised so far are on screen, so a page leaves only after', async () => {
    toast.success('Order placed successfully!', { id: 'place-order' });
    await toastsShown();
    expect(shown.at(-1)).toEqual({ kind: 'success', text: 'Order placed successfully!', id: 'place-order' });
  });
});
