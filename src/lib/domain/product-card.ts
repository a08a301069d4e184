/**
 * How a product card says its price and where it links: the rules the server's cards and the
 * cards built in the browser share (no imports: the home page's script carries it).
 */
import type { ProductDto } from './catalogue';

/** What a product card needs to say its price and link to what it priced. */
export type CardFacts = Pick<ProductDto, 'id' | 'price' | 'currency' | 'colorNames'> & Partial<Pick<ProductDto, 'priceFrom' | 'cardColor'>>;

/** The card's price: "From ₦1,475,000" where other variants cost more. */
export function cardPriceText(p: CardFacts, formatted: string): string {
  return p.priceFrom ? `From ${formatted}` : formatted;
}

/** The card's link: the product page opened on the colour the card shows and prices (when there is a choice of colour). */
export function cardHref(p: CardFacts): string {
  const base = `/product/${p.id}`;
  return p.cardColor && p.colorNames.length > 1 ? `${base}?color=${encodeURIComponent(p.cardColor)}` : base;
}
