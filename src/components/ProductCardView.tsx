import type { ProductDto } from '@/lib/domain/catalogue';
import { formatMoney } from '@/lib/domain/money';
import { CARD_SIZES, CARD_WIDTHS, pictureSources } from '@/lib/client/pictures';
import { Picture } from './Picture';

/** What a card shows; islands receive only this from the server (smaller pages). */
export type CardProduct = Pick<ProductDto, 'id' | 'name' | 'price' | 'currency' | 'images'>;

export function toCardProduct(p: ProductDto): CardProduct {
  return { id: p.id, name: p.name, price: p.price, currency: p.currency, images: p.images.slice(0, 1) };
}

/** The islands' product card; same markup and classes as src/components/ProductCard.astro. */
export function ProductCardView({ product, showId = false, eager = false, saveData = false }: { product: CardProduct; showId?: boolean; eager?: boolean; saveData?: boolean }) {
  const pic = pictureSources(product.images[0], CARD_WIDTHS, 640, { saveData });
  return (
    <article className="card" data-product-id={product.id}>
      <a className="card-link" href={`/product/${product.id}`}>
        <div className="card-media">
          <Picture pic={pic} sizes={CARD_SIZES} alt={product.name} width={640} height={800} loading={eager ? 'eager' : 'lazy'} decoding="async" />
        </div>
        <div className="card-body">
          <h3 className="card-name" title={product.name}>
            {product.name}
          </h3>
          {showId && <p className="card-id">Ref. {product.id}</p>}
          <p className="card-price" data-price={product.price}>
            {formatMoney(product.price, product.currency)}
          </p>
        </div>
      </a>
      <div className="card-actions">{/* favourite button slot (added by the favourites work) */}</div>
    </article>
  );
}

/** Grey placeholder card shown while a list loads. */
export function ProductCardSkeleton() {
  return (
    <div className="card card-skeleton" aria-hidden="true" data-skeleton>
      <div className="card-media" />
      <div className="skeleton-line" />
      <div className="skeleton-line short" />
    </div>
  );
}
