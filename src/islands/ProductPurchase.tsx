import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useChoicesMadeEarly, useFormSubmit, useHeldSendsReplayed } from '@/lib/client/forms';
import { $profile, cartChanged } from '@/lib/client/stores';
import { firstInStock, isAvailable, optionsWith, type VariantChoice } from '@/lib/domain/variants';
import type { VariantDto } from '@/lib/domain/catalogue';
import CsrfInput from '@/components/CsrfInput';
import Field from '@/components/Field';
import { pictureSources } from '@/lib/client/pictures';
import { Picture } from '@/components/Picture';
import { hashFromImageUrl, imageUrl, type ImageWidth } from '@/lib/domain/images';
import { TOASTS } from '@/lib/domain/toasts';

/** One gallery image: its URL and alt text; the <picture> sources are derived here, not sent twice. */
export interface GalleryImage {
  url: string;
  alt: string;
  /** The colour it shows; null: every colour. */
  color: string | null;
}

/** Widths of the main image: a phone's full width up to half a desktop screen, at up to 2x. */
const MAIN_WIDTHS: readonly ImageWidth[] = [320, 480, 640, 960, 1280];
const THUMB_WIDTHS: readonly ImageWidth[] = [160, 320];

/** A variant with its price already formatted in the market's currency. */
export type PurchaseVariant = Omit<VariantDto, 'sku'> & { priceText: string };

/** What the island needs of a product; the page builds it from ProductDetailDto. */
export interface PurchaseProduct {
  id: number;
  name: string;
  /** The lowest variant price, already formatted in the market's currency. */
  priceText: string;
  price: number;
  /** "incl. VAT" beside the price where the market is registered. */
  vatNote?: string | null;
  categoryLine: string;
  gallery: GalleryImage[];
  variants: PurchaseVariant[];
  sizeNames: string[];
  /** "Size & fit": a bag's outer size in cm, in words (domain/catalogue.ts formatDimensions); null: none stated. */
  sizeFit?: string | null;
  colors: { name: string; hex: string | null }[];
  /** Save-Data: smaller renditions. */
  saveData?: boolean;
}

export interface ProductPurchaseProps {
  product: PurchaseProduct;
  /** The session's CSRF token for the ADD TO CART form (null when signed out). */
  csrf?: string | null;
  /** The colour asked for in the page's address (?color=, the colour links work without scripts). */
  initialColor?: string | null;
  /** The size a `?size=` URL names (with `?color=`, one variant: the one its listing links to). */
  initialSize?: string | null;
  /** Rendered beside the name (e.g. the favourite button). */
  children?: ReactNode;
  /** The "Size guide" under the sizes (the page's named slot: static HTML, no script). */
  sizeGuide?: ReactNode;
  /** The description, as the page's HTML (a slot): sent once, not again in the island's props. */
  description?: ReactNode;
  /** The designer's line above the name, as the page's HTML (a slot, like the description). */
  designer?: ReactNode;
}

const MAIN_SIZES = '(min-width: 900px) 45vw, 100vw';

/** The large rendition a tap on the main picture opens (full screen, or the image itself without scripts). */
const largeOf = (url: string) => {
  const hash = hashFromImageUrl(url);
  return hash ? imageUrl(hash, 1600) : url;
};

/**
 * The product page's interactive part: gallery (thumbnails select the main image), size
 * and colour choice (first in-stock combination preselected; sold-out ones disabled) and
 * ADD TO CART. Server-rendered with the page, so it paints before hydration. Size and colour
 * are radio inputs of a real form posting to the add-to-cart endpoint, which works without
 * scripts (303 to /cart); once hydrated the island sends it with fetch and shows the toasts.
 */
export default function ProductPurchase({ product, csrf, initialColor, initialSize, children, sizeGuide, description, designer }: ProductPurchaseProps) {
  const [imageIndex, setImageIndex] = useState(0);
  // Sizes are chosen, never assumed: with more than one, none is ticked until the shopper picks one.
  const sizeCount = new Set(product.variants.map((v) => v.size).filter(Boolean)).size;
  const [choice, setChoice] = useState<VariantChoice>(() => {
    const inColour = product.variants.filter((v) => v.color === initialColor);
    const candidates = inColour.length ? inColour : product.variants;
    const ofSize = candidates.filter((v) => v.size === initialSize);
    // A size asked for by the URL is chosen, even sold out: the page then says so.
    if (initialSize && ofSize.length) return firstInStock(ofSize);
    const first = firstInStock(candidates);
    return sizeCount > 1 ? { ...first, size: null } : first;
  });
  const sizeMissing = sizeCount > 1 && choice.size === null;
  // The gallery follows the chosen colour: its own pictures and those of every colour.
  const ofColour = product.gallery.filter((i) => i.color === null || i.color === choice.color);
  const images = ofColour.length ? ofColour : product.gallery;

  // Each option says whether it can be bought with the other choice as it stands.
  const sizes = optionsWith(product.variants, 'size', choice, product.sizeNames);
  const colors = optionsWith(product.variants, 'color', choice, product.colors.map((c) => c.name));
  // Where variants differ in price, an option whose variants share one price shows it, so a
  // shopper without scripts (whose price line does not follow the choice) still sees it.
  const pricesVary = new Set(product.variants.map((v) => v.price)).size > 1;
  const priceOf = (key: 'size' | 'color') => (value: string) => {
    if (!pricesVary) return undefined;
    const withIt = product.variants.filter((v) => v[key] === value);
    return new Set(withIt.map((v) => v.price)).size === 1 ? withIt[0]!.priceText : undefined;
  };
  const hexOf = new Map(product.colors.map((c) => [c.name, c.hex]));
  // Until a size is picked, the colour alone says whether it can be bought.
  const available = sizeMissing ? product.variants.some((v) => v.color === choice.color && v.stock > 0) : isAvailable(product.variants, choice);
  const chosen = product.variants.find((v) => v.size === choice.size && v.color === choice.color);
  const stock = chosen?.stock ?? 0;

  // A choice changes only what the shopper touched: a sold-out combination stays chosen and
  // says so, rather than the other option moving (and the pictures with it) unseen.
  const choose = (key: 'size' | 'color', value: string) => {
    if (key === 'color') {
      setImageIndex(0);
      colourInAddress(value);
    }
    setChoice((prev) => ({ ...prev, [key]: value }));
  };

  const purchase = useRef<HTMLFormElement>(null);
  useChoicesMadeEarly(purchase, { size: choice.size, color: choice.color }, (name, value) => choose(name === 'size' ? 'size' : 'color', value));
  useHeldSendsReplayed(purchase);

  const { busy, onSubmit } = useFormSubmit<{ status?: boolean; message?: string; data?: { items?: unknown[] } }>({
    failed: TOASTS['cart-add-failed'],
    unreachable: TOASTS['cart-add-error'],
    // Who is signed in comes from the page (chrome.ts syncs $profile from it): the page itself may come from the shared cache.
    // The size from the form itself: a send held until hydration carries the size ticked before it, not yet in state.
    // Signed out: the toast's "Sign in" posts the same form as a page would without scripts, which keeps the choice through signing in.
    check: (values, form) =>
      !$profile.get() ? { text: TOASTS['login-required'], action: { label: 'Sign in', run: () => form.submit() } } : sizeCount > 1 && !values.size ? TOASTS['size-required'] : null,
    succeeded: ({ body }) => Boolean(body?.status),
    body: (values) => ({ productId: Number(values.productId), color: values.color ?? null, size: values.size ?? null, quantity: 1 }),
    onSuccess: (body) => {
      if (Array.isArray(body.data?.items)) cartChanged({ items: body.data.items });
      return { toast: TOASTS['cart-added'] };
    },
  });

  const mainImage = images[Math.min(imageIndex, images.length - 1)]!;
  // The zoom (Swiper and its zoom module) is fetched on the first tap only; a link to the large
  // image until then, and for a shopper without scripts.
  const openZoom = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || typeof HTMLDialogElement !== 'function') return;
    event.preventDefault();
    const start = Math.min(imageIndex, images.length - 1);
    void import('@/lib/client/picture-zoom').then(({ openPictureZoom }) =>
      openPictureZoom(images.map((i) => ({ src: largeOf(i.url), alt: i.alt })), start, setImageIndex),
    );
  };
  const main = { ...pictureSources(mainImage.url, MAIN_WIDTHS, 960, { saveData: product.saveData }), alt: mainImage.alt, hash: hashFromImageUrl(mainImage.url) ?? '' };

  return (
    <div className="product-layout">
      <div className="gallery">
        <a className="gallery-main" href={largeOf(mainImage.url)} onClick={openZoom} aria-label={`${mainImage.alt}: open full screen`} data-zoom>
          <Picture
            key={main.src}
            pic={main}
            sizes={MAIN_SIZES}
            alt={main.alt}
            width={800}
            height={1000}
            loading="eager"
            fetchPriority={imageIndex === 0 ? 'high' : 'auto'}
            data-main-image
            data-hash={main.hash}
          />
        </a>
        {images.length > 1 && (
          <ul className="gallery-thumbs" aria-label="Product images">
            {images.map((image, i) => {
              const pic = pictureSources(image.url, THUMB_WIDTHS, 160, { saveData: product.saveData });
              return (
                <li key={image.url}>
                  <button
                    type="button"
                    className="thumb"
                    aria-pressed={i === imageIndex}
                    aria-label={`Show image ${i + 1} of ${images.length}`}
                    data-hash={hashFromImageUrl(image.url) ?? ''}
                    onClick={() => setImageIndex(i)}
                  >
                    <Picture pic={pic} sizes="80px" alt="" width={160} height={200} loading="lazy" decoding="async" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>

      <div className="product-info">
        <p className="product-category">{product.categoryLine}</p>
        {designer}
        <div className="product-title-row">
          <h1>{product.name}</h1>
          {children}
        </div>
        {/* Variants may differ in price: the chosen one's is shown. */}
        <p className="product-price" aria-live="polite" data-price={chosen?.price ?? product.price}>
          {chosen?.priceText ?? product.priceText}
        </p>
        {product.vatNote && <p className="product-vat">{product.vatNote}</p>}
        {description}
        {product.sizeFit && (
          <div className="size-fit">
            <h2>Size &amp; fit</h2>
            <p data-dimensions>{product.sizeFit}</p>
          </div>
        )}

        <form ref={purchase} method="post" action={`/api/v1/cart/add-to-cart?back=/product/${product.id}`} onSubmit={onSubmit} data-purchase>
          <CsrfInput token={csrf} />
          <input type="hidden" name="productId" value={product.id} />
          <OptionGroup name="size" legend="Size" options={sizes} chosen={choice.size} onChoose={(value) => choose('size', value)} priceOf={priceOf('size')}>
            {sizeGuide}
          </OptionGroup>
          <OptionGroup
            name="color"
            legend="Colour"
            options={colors}
            chosen={choice.color}
            onChoose={(value) => choose('color', value)}
            swatchOf={(value) => hexOf.get(value) || 'var(--line)'}
            priceOf={priceOf('color')}
          />

          {/* Without scripts the radio cannot change the pictures: each colour is also a link to the page showing it. */}
          {colors.length > 1 && product.gallery.some((i) => i.color !== null) && (
            <noscript>
              <p className="colour-links">
                See it in{' '}
                {colors.map(({ value }) => (
                  <a key={value} href={`/product/${product.id}?color=${encodeURIComponent(value)}`} aria-current={value === choice.color ? 'true' : undefined}>
                    {value}
                  </a>
                ))}
              </p>
            </noscript>
          )}

          <p className="stock-note" role="status">
            {!available ? (choice.size && choice.color ? `${choice.size} is sold out in ${choice.color}.` : 'Sold out in this combination.') : stock > 0 && stock <= 3 ? `Only ${stock} left.` : ''}
          </p>

          <button type="submit" className="btn add-to-cart" disabled={busy || !available}>
            ADD TO CART
          </button>
        </form>

        {product.variants.some((v) => v.stock === 0) && (
          <BackInStock productId={product.id} csrf={csrf} variants={product.variants} chosenId={!available && chosen ? chosen.id : null} />
        )}

        <ul className="product-notes">
          <li>100% Original Product.</li>
          <li>Easy return and exchange policy within 3 days.</li>
        </ul>
      </div>
    </div>
  );
}

/**
 * The chosen colour goes into the page's address (`?color=`, as the colour links without scripts
 * have it), replacing the entry rather than adding one: a shared or reloaded link opens the piece
 * in the colour the shopper was looking at, and Back still leaves the page.
 */
function colourInAddress(color: string) {
  const url = new URL(window.location.href);
  if (url.searchParams.get('color') === color) return;
  url.searchParams.set('color', color);
  history.replaceState(history.state, '', url);
}

/** How a variant is named in the back-in-stock list: "L in Navy", "Navy", "L". */
const choiceName = (v: { size: string | null; color: string | null }) => [v.size, v.color].filter(Boolean).join(' in ') || 'This piece';

/**
 * "Email me when it is back": a form of its own (forms do not nest) naming a sold-out variant and an
 * e-mail, posted to the back-in-stock endpoint (double opt-in: a confirm mail). Open, on the chosen
 * variant, when the choice is sold out; closed otherwise, listing every sold-out variant, so a
 * shopper without scripts (whose radios do not change the page) can still ask.
 */
function BackInStock({ productId, csrf, variants, chosenId }: { productId: number; csrf?: string | null | undefined; variants: PurchaseVariant[]; chosenId: number | null }) {
  const soldOut = variants.filter((v) => v.stock === 0);
  const form = useRef<HTMLFormElement>(null);
  // A signed-in shopper's address is filled in (the page itself may come from the shared cache, so not in its HTML).
  useEffect(() => {
    const known = $profile.get()?.email;
    const input = form.current?.elements.namedItem('email');
    if (known && input instanceof HTMLInputElement && !input.value) input.value = known;
  }, [chosenId]);
  const { busy, onSubmit } = useFormSubmit<{ status?: boolean; message?: string }>({
    failed: TOASTS['back-in-stock-failed'],
    onSuccess: (body) => ({ toast: body.message ?? TOASTS['back-in-stock-sent'] }),
  });
  return (
    <details className="back-in-stock" open={chosenId !== null || undefined} id="back-in-stock">
      <summary>{chosenId !== null ? 'Email me when it is back' : 'Sold out in your size or colour? Email me when it is back'}</summary>
      <form ref={form} method="post" action={`/api/v1/back-in-stock?back=/product/${productId}`} onSubmit={onSubmit}>
        <CsrfInput token={csrf} />
        <input type="hidden" name="productId" value={productId} />
        <Field id="back-in-stock-choice" label="Which one">
          <select id="back-in-stock-choice" name="variantId" key={chosenId ?? 'any'} defaultValue={chosenId ?? soldOut[0]!.id}>
            {soldOut.map((v) => (
              <option key={v.id} value={v.id}>
                {choiceName(v)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="back-in-stock-email" label="Email" type="email" name="email" autoComplete="email" required maxLength={254} hint="We ask you to confirm by e-mail, then write once when it is back." />
        <button type="submit" className="btn btn-outline" disabled={busy}>
          EMAIL ME WHEN IT IS BACK
        </button>
      </form>
    </details>
  );
}

/**
 * One choice (size or colour) as radio buttons of the purchase form. An option that cannot be
 * bought with the other choice stays choosable (and focusable), struck through and named so
 * ("L, sold out in Navy"): choosing it shows that the combination is sold out.
 */
function OptionGroup(props: {
  name: 'size' | 'color';
  legend: string;
  options: { value: string; inStock: boolean; soldOutIn: string | null }[];
  chosen: string | null;
  onChoose: (value: string) => void;
  /** A colour's swatch. */
  swatchOf?: (value: string) => string;
  /** The option's own price, where it has one (shown, but not part of the option's name). */
  priceOf?: (value: string) => string | undefined;
  /** Shown under the options (the size guide). */
  children?: ReactNode;
}) {
  const { name, legend, options, chosen, onChoose, swatchOf, priceOf, children } = props;
  if (options.length === 0) return null;
  return (
    <fieldset className="option-group">
      <legend>
        {legend}
        {chosen && <span className="option-current">: {chosen}</span>}
      </legend>
      <div className="option-buttons">
        {options.map(({ value, inStock, soldOutIn }) => {
          const price = priceOf?.(value);
          const soldOut = soldOutIn ? `sold out in ${soldOutIn}` : 'sold out';
          return (
            <label key={value} className="option" title={inStock ? undefined : `Sold out${soldOutIn ? ` in ${soldOutIn}` : ''}`}>
              <input
                type="radio"
                className="option-input"
                name={name}
                value={value}
                checked={chosen === value}
                data-sold-out={inStock ? undefined : ''}
                aria-label={inStock ? undefined : `${value}, ${soldOut}`}
                onChange={() => onChoose(value)}
              />
              <span className="option-btn">
                {swatchOf && <span className="swatch" style={{ background: swatchOf(value) }} aria-hidden="true" />}
                {value}
                {price && (
                  <span className="option-price" aria-hidden="true">
                    {price}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>
      {children}
    </fieldset>
  );
}
