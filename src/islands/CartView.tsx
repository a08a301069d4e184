import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from '@/lib/client/toast';
import CheckoutTotals from '@/components/CheckoutTotals';
import CsrfInput from '@/components/CsrfInput';
import { DiscountFields, DiscountForm } from '@/components/DiscountCode';
import { api } from '@/lib/client/api';
import { formValues, sendAndShow } from '@/lib/client/forms';
import { cartChanged } from '@/lib/client/stores';
import { cartTotals, maxQuantityFor, sameLine, type CartDto, type CartItemDto } from '@/lib/domain/cart';
import { PLACEHOLDER_IMAGE } from '@/lib/domain/images';
import { LINE_WIDTHS, pictureSources } from '@/lib/client/pictures';
import { Picture } from '@/components/Picture';
import { formatMoney } from '@/lib/domain/money';
import { TOASTS } from '@/lib/domain/toasts';
import './CartView.css';

interface Props {
  initialCart: CartDto;
  /** "incl. VAT" beside the total where the market is registered. */
  vatNote?: string | null;
  /** Said once, e.g. that the cart was re-priced for another market: inline until the island runs, then a toast. */
  notice?: string | null;
  /** The session's CSRF token for the line forms. */
  csrf?: string | null;
}

const CART_API = '/api/v1/cart/';

const keyOf = (i: Pick<CartItemDto, 'productId' | 'color' | 'size'>) => `${i.productId}|${i.color ?? ''}|${i.size ?? ''}`;

/**
 * The cart: quantities change at once and roll back when the server refuses. Each line is a
 * real form (minus, plus and remove are its submit buttons, each with its own action), so the
 * cart works without scripts; once hydrated the island sends the same requests with fetch.
 */
export default function CartView({ initialCart, notice, csrf, vatNote = null }: Props) {
  const [cart, setCart] = useState(initialCart);
  const [pending, setPending] = useState<Set<string>>(new Set());
  const latest = useRef(cart);
  latest.current = cart;

  useEffect(() => {
    cartChanged(cart);
  }, [cart]);

  // Without scripts the notice stays inline; once hydrated it becomes the store's usual toast.
  const [inlineNotice, setInlineNotice] = useState(notice ?? null);
  useEffect(() => {
    if (!notice) return;
    toast.success(notice, { id: 'cart-notice' });
    setInlineNotice(null);
  }, [notice]);

  const money = (n: number) => formatMoney(n, cart.currency);
  const busy = (key: string, on: boolean) =>
    setPending((s) => {
      const next = new Set(s);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  function withQuantity(c: CartDto, item: CartItemDto, quantity: number): CartDto {
    const items = c.items.map((i) => (sameLine(i, item) ? { ...i, quantity, price: Math.round(i.unitPrice * 100 * quantity) / 100 } : i));
    return { ...c, items, ...cartTotals(items, c.deliveryFee, c.discount) };
  }

  /** The server's cart; a notice with it (the code no longer applies) is toasted. */
  function fromServer(next: CartDto) {
    setCart(next);
    if (next.notice) toast.success(next.notice, { id: 'cart-notice' });
  }

  async function changeQuantity(item: CartItemDto, quantity: number) {
    const key = keyOf(item);
    const before = latest.current;
    setCart(withQuantity(before, item, quantity));
    busy(key, true);
    const path = quantity > item.quantity ? '/cart/update-quantity' : '/cart/decrease-quantity';
    await sendAndShow<{ status: boolean; data: CartDto; message?: string }>(
      () => api(path, { method: 'PATCH', body: { productId: item.productId, color: item.color, size: item.size, quantity } }),
      {
        failed: 'Failed to update quantity',
        toastId: `cart-line:${key}`,
        onSuccess: (body) => {
          fromServer(body.data);
          return { toast: null };
        },
        onFailure: () => setCart((c) => withQuantity(c, item, item.quantity)),
        refusal: ({ body }) => (body?.message ? `Failed to update quantity: ${body.message}` : 'Failed to update quantity'),
      },
    );
    busy(key, false);
  }

  async function remove(item: CartItemDto) {
    const key = keyOf(item);
    busy(key, true);
    await sendAndShow<{ status: boolean; data: CartDto }>(
      () => api('/cart/remove-product', { method: 'DELETE', body: { productId: item.productId, color: item.color, size: item.size } }),
      {
        failed: TOASTS['cart-remove-failed'],
        toastId: `cart-line:${key}`,
        onSuccess: (body) => {
          fromServer(body.data);
          return { toast: 'Item removed' };
        },
        refusal: () => TOASTS['cart-remove-failed'],
      },
    );
    busy(key, false);
  }

  function onLineSubmit(e: FormEvent<HTMLFormElement>, item: CartItemDto) {
    e.preventDefault();
    const button = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!button || pending.has(keyOf(item))) return;
    if (button.dataset.act === 'remove') void remove(item);
    // The quantity the pressed button posts, read from the form as the browser would send it.
    else void changeQuantity(item, Number(formValues(e.currentTarget, button).quantity));
  }

  if (cart.items.length === 0) {
    return (
      <div className="buy-empty">
        <p className="buy-empty-title">Your cart is empty</p>
        <a className="btn" href="/collection">
          Continue shopping
        </a>
      </div>
    );
  }

  return (
    <>
      {inlineNotice && (
        <p className="form-message" role="status" data-cart-notice>
          {inlineNotice}
        </p>
      )}
      <div className="cart-layout">
        <ul className="cart-lines" aria-label="Items in your cart">
          {cart.items.map((item) => {
            const key = keyOf(item);
            const max = maxQuantityFor(item.stock);
            const isBusy = pending.has(key);
            return (
              <li className="cart-line" key={key}>
                <a href={`/product/${item.productId}`} className="cart-thumb">
                  <Picture
                    pic={pictureSources(item.productImage, LINE_WIDTHS, 320)}
                    sizes="(min-width: 640px) 112px, 84px"
                    alt={item.productName}
                    width={96}
                    height={120}
                    loading="lazy"
                    onError={(e) => {
                      e.currentTarget.src = PLACEHOLDER_IMAGE;
                    }}
                  />
                </a>
                <div className="cart-info">
                  <h2 className="cart-name">
                    <a href={`/product/${item.productId}`}>{item.productName}</a>
                  </h2>
                  <p className="cart-meta">
                    {item.size && <span>Size: {item.size}</span>}
                    {item.color && <span>Colour: {item.color}</span>}
                  </p>
                  <p className="cart-unit">{money(item.unitPrice)} each</p>
                  <form className="cart-controls" method="post" action={`${CART_API}update-quantity`} onSubmit={(e) => onLineSubmit(e, item)}>
                    <CsrfInput token={csrf} />
                    <input type="hidden" name="productId" value={item.productId} />
                    {item.color && <input type="hidden" name="color" value={item.color} />}
                    {item.size && <input type="hidden" name="size" value={item.size} />}
                    <div className="qty" role="group" aria-label={`Quantity of ${item.productName}`}>
                      <button
                        type="submit"
                        formAction={`${CART_API}decrease-quantity`}
                        name="quantity"
                        value={item.quantity - 1}
                        className="qty-btn"
                        aria-label="Decrease quantity"
                        disabled={item.quantity <= 1 || isBusy}
                      >
                        −
                      </button>
                      <output className="qty-value" aria-live="polite" aria-label="Quantity">
                        {item.quantity}
                      </output>
                      <button
                        type="submit"
                        formAction={`${CART_API}update-quantity`}
                        name="quantity"
                        value={item.quantity + 1}
                        className="qty-btn"
                        aria-label="Increase quantity"
                        disabled={isBusy || item.quantity >= max}
                        title={item.quantity >= max ? (max < 10 ? `Only ${item.stock} in stock` : 'At most 10 per item') : undefined}
                      >
                        +
                      </button>
                    </div>
                    <p className="cart-line-total" aria-label="Line total">
                      {money(item.price)}
                    </p>
                    <button
                      type="submit"
                      formAction={`${CART_API}remove-product`}
                      data-act="remove"
                      className="cart-remove"
                      aria-label="Remove"
                      title="Remove"
                      disabled={isBusy}
                    >
                      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" aria-hidden="true">
                        <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
                      </svg>
                    </button>
                  </form>
                </div>
              </li>
            );
          })}
        </ul>
        <CheckoutTotals
          label="Cart total"
          totals={cart}
          vatNote={vatNote}
          pickup={cart.deliveryOption === 'pickup'}
          deliveryOutlook={{ addressKnown: cart.deliveryAddress !== null }}
          totalTestId="cart-total"
          discountControls={<DiscountFields form="cart-discount" back="/cart" cart={cart} idPrefix="cart" />}
        >
          <a className="btn buy-cta" href="/place-order">
            PROCEED TO CHECKOUT
          </a>
        </CheckoutTotals>
      </div>
      <DiscountForm id="cart-discount" back="/cart" csrf={csrf} onCart={fromServer} />
    </>
  );
}
