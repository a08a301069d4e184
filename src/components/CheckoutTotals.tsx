import type { CartDto } from '@/lib/domain/cart';
import { formatMoney, toMajor } from '@/lib/domain/money';
import { freeExpressFromMinor, lowestDeliveryFeeMinor } from '@/lib/domain/shipping';
import type { ReactNode } from 'react';

interface Props {
  /** The cart's figures (the checkout's follow the delivery choice). */
  totals: Pick<CartDto, 'subtotal' | 'deliveryFee' | 'total' | 'currency'> & Partial<Pick<CartDto, 'discount' | 'discountCode'>>;
  pickup: boolean;
  /** test id of the total, so the cart and the checkout can be told apart */
  totalTestId: string;
  /** The summary's accessible name ('Cart total', 'Order summary'). */
  label: string;
  /** What follows the figures: the way on (checkout link, pay button). */
  children?: ReactNode;
  /** The discount code's controls (field and Apply, or Remove for the applied code). */
  discountControls?: ReactNode;
  /**
   * The cart's view of delivery before checkout: with no address to deliver to yet it says what
   * delivery costs at least, and it names the market's free-express threshold.
   */
  deliveryOutlook?: { addressKnown: boolean };
  /** Gift wrapping's fee when asked for at checkout (major units; part of total). */
  giftWrap?: number;
  /** "incl. VAT" beside the total where the market is registered. */
  vatNote?: string | null;
}

/**
 * The summary beside the cart and the checkout: Subtotal / Discount (with the code, when one is
 * applied) / Shipping Fee / Total (pickup shows 'Free shipping'), then the discount code's
 * controls and the way on.
 */
export default function CheckoutTotals({ totals: { subtotal, deliveryFee, total, currency, discount = 0, discountCode = null }, pickup, totalTestId, label, children, discountControls, deliveryOutlook, giftWrap = 0, vatNote = null }: Props) {
  const money = (n: number) => formatMoney(n, currency);
  const freeExpressFrom = deliveryOutlook ? freeExpressFromMinor(currency) : null;
  const fee = deliveryOutlook && !deliveryOutlook.addressKnown ? `Delivery from ${money(toMajor(lowestDeliveryFeeMinor(currency)))}` : pickup || deliveryFee === 0 ? 'Free shipping' : money(deliveryFee);
  return (
    <aside className="buy-summary" aria-label={label}>
      <dl>
        <div>
          <dt>Subtotal</dt>
          <dd>{money(subtotal)}</dd>
        </div>
        {discountCode && (
          <div className="buy-discount-line">
            <dt>
              Discount <span className="buy-discount-code">{discountCode}</span>
            </dt>
            <dd data-testid="discount">-{money(discount)}</dd>
          </div>
        )}
        <div>
          <dt>Shipping Fee</dt>
          <dd data-testid="shipping-fee">{fee}</dd>
        </div>
        {giftWrap > 0 && (
          <div>
            <dt>Gift wrapping</dt>
            <dd data-testid="gift-wrap">{money(giftWrap)}</dd>
          </div>
        )}
        <div className="buy-total">
          <dt>Total{vatNote && <span className="buy-vat-note"> {vatNote}</span>}</dt>
          <dd data-testid={totalTestId}>{money(total)}</dd>
        </div>
      </dl>
      {freeExpressFrom !== null && (
        <p className="buy-note" data-testid="free-express">
          Free express delivery above {money(toMajor(freeExpressFrom))}
        </p>
      )}
      {discountControls}
      {children}
    </aside>
  );
}
