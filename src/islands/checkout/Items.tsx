import { Picture } from '@/components/Picture';
import { LINE_WIDTHS, pictureSources } from '@/lib/client/pictures';
import type { CartDto } from '@/lib/domain/cart';
import { formatMoney } from '@/lib/domain/money';

/** The cart's lines as checkout lists them: picture, name, colour, size, quantity and the line's price. */
export default function Items({ cart }: { cart: CartDto }) {
  return (
    <ul className="po-items" aria-label="Items">
      {cart.items.map((i) => (
        <li key={`${i.productId}|${i.color}|${i.size}`}>
          <Picture pic={pictureSources(i.productImage, LINE_WIDTHS, 320)} sizes="56px" alt="" width="56" height="70" loading="lazy" decoding="async" />
          <span className="po-item-text">
            <span className="po-item-name">{i.productName}</span>
            <span className="po-item-meta">{[i.color && `Colour: ${i.color}`, i.size && `Size: ${i.size}`, `Quantity: ${i.quantity}`].filter(Boolean).join(' · ')}</span>
          </span>
          <span>{formatMoney(i.price, cart.currency)}</span>
        </li>
      ))}
    </ul>
  );
}
