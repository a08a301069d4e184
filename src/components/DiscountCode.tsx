import CsrfInput from '@/components/CsrfInput';
import Field from '@/components/Field';
import { useFormSubmit } from '@/lib/client/forms';
import type { CartDto } from '@/lib/domain/cart';
import { TOASTS } from '@/lib/domain/toasts';

const DISCOUNT_API = '/api/v1/cart/discount';

/**
 * The discount code's form: an empty <form> placed outside any other form (the checkout's summary
 * sits inside the checkout form, and forms do not nest), whose fields (DiscountFields, in the
 * totals) point to it with `form=`. Without scripts the browser posts it and comes back (303) to
 * `back` with ?notice= or ?error=; once hydrated it is sent with fetch, the server's message is the
 * toast and the server's cart replaces the island's (onCart).
 */
export function DiscountForm({ id, back, csrf, onCart }: { id: string; back: string; csrf?: string | null | undefined; onCart: (cart: CartDto) => void }) {
  const { onSubmit } = useFormSubmit<{ status: boolean; data: CartDto }>({
    failed: TOASTS['discount-failed'],
    onSuccess: (body) => onCart(body.data),
  });
  return (
    <form id={id} method="post" action={`${DISCOUNT_API}?back=${encodeURIComponent(back)}`} onSubmit={onSubmit} hidden>
      <CsrfInput token={csrf} />
    </form>
  );
}

/** In the totals: the "Discount code" field and Apply, or "Remove code" for the applied code (one code per order). */
export function DiscountFields({ form, back, cart, idPrefix }: { form: string; back: string; cart: Pick<CartDto, 'discountCode'>; idPrefix: string }) {
  if (cart.discountCode) {
    return (
      <button className="btn btn-outline buy-discount-remove" type="submit" form={form} formAction={`${DISCOUNT_API}/remove?back=${encodeURIComponent(back)}`} aria-label={`Remove code ${cart.discountCode}`}>
        Remove code
      </button>
    );
  }
  return (
    <div className="buy-discount">
      <Field id={`${idPrefix}-discount-code`} label="Discount code" name="code" form={form} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={64} required />
      <button className="btn btn-outline" type="submit" form={form}>
        Apply
      </button>
    </div>
  );
}
