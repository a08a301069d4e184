import type { CartDto } from '../lib/domain/cart';
import { formatMoney } from '../lib/domain/money';

interface Props {
  /** The cart's figures (the checkout's follow the delivery choice). */
  totals: Pick<CartDto, 'subtotal' | 'deliveryFee' | 'total' | 'currency'>;
  pickup: boolean;
  /** test id of the total, so the cart and the checkout can be told apart */
  totalTestId: string;
}

/** Subtotal / Shipping Fee / Total, shared by the cart and the checkout (spec: pickup shows 'Free shipping'). */
export default function CheckoutTotals({ totals: { subtotal, deliveryFee, total, currency }, pickup, totalTestId }: Props) {
  const money = (n: number) => formatMoney(n, currency);
  return (
    <dl>
      <div>
        <dt>Subtotal</dt>
        <dd>{money(subtotal)}</dd>
      </div>
      <div>
        <dt>Shipping Fee</dt>
        <dd>{pickup ? 'Free shipping' : money(deliveryFee)}</dd>
      </div>
      <div className="buy-total">
        <dt>Total</dt>
        <dd data-testid={totalTestId}>{money(total)}</dd>
      </div>
    </dl>
  );
}
