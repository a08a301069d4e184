/**
 * Product cards built in the browser, for lists that grow after the page loaded (the home page's
 * showcases). The same markup and classes as src/components/ProductCard.astro, without the heart.
 */
import type { ProductDto } from '@/lib/domain/catalogue';
import { cardHref, cardPriceText } from '@/lib/domain/product-card';
import { formatMoney } from '@/lib/domain/money';
import { CARD_SIZES, CARD_WIDTHS, pictureSources } from './pictures';

/** What a card shows. */
export type CardProduct = Pick<ProductDto, 'id' | 'name' | 'price' | 'currency' | 'images' | 'colorNames'> & Partial<Pick<ProductDto, 'priceFrom' | 'cardColor' | 'designer'>>;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

export function productCardElement(product: CardProduct, saveData = false): HTMLElement {
  const pic = pictureSources(product.images[0], CARD_WIDTHS, 640, { saveData });
  const picture = element('picture');
  if (pic.avif) picture.append(element('source', { type: 'image/avif', srcset: pic.avif, sizes: CARD_SIZES }));
  if (pic.webp) picture.append(element('source', { type: 'image/webp', srcset: pic.webp, sizes: CARD_SIZES }));
  picture.append(element('img', { src: pic.src, alt: product.name, width: '640', height: '800', loading: 'lazy', decoding: 'async' }));
  return element(
    'article',
    { class: 'card', 'data-product-id': String(product.id) },
    element(
      'a',
      { class: 'card-link', href: cardHref(product) },
      element('div', { class: 'card-media' }, picture),
      element(
        'div',
        { class: 'card-body' },
        ...(product.designer ? [element('p', { class: 'cd' }, product.designer.name)] : []),
        element('h3', { class: 'card-name', title: product.name }, product.name),
        element('p', { class: 'card-price', 'data-price': String(product.price) }, cardPriceText(product, formatMoney(product.price, product.currency))),
      ),
    ),
    element('div', { class: 'card-actions' }),
  );
}

/** Grey placeholder card shown while a list loads. */
export function productCardSkeleton(): HTMLElement {
  return element(
    'div',
    { class: 'card card-skeleton', 'aria-hidden': 'true', 'data-skeleton': '' },
    element('div', { class: 'card-media' }),
    element('div', { class: 'skeleton-line' }),
    element('div', { class: 'skeleton-line short' }),
  );
}
