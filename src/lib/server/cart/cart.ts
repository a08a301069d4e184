import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  lineTotalMinor,
  sameLine,
  variantLabel,
  type CartDto,
  type DeliverySpeedChoice,
  type CartLineBase,
} from '@/lib/domain/cart';
import { assertQuantityAllowed, assertRoomForNewLine } from '@/lib/domain/cart-limits';
import type { CartQuote } from '@/lib/domain/checkout-totals';
import type { AddToCartInput, ChangeQuantityInput, LineKey } from '@/lib/domain/cart-input';
import { AppError, Forbidden, Invalid, NotFound } from '@/lib/domain/errors';
import { imageUrl, PLACEHOLDER_IMAGE } from '@/lib/domain/images';
import { DEFAULT_MARKET, MARKETS, marketLabel, parseMarket, type MarketCode } from '@/lib/domain/markets';
import { addMoney, money, sumMoney, timesMoney, toMajor, type CurrencyCode } from '@/lib/domain/money';
import { apiDeliveryOption, DELIVERY_SPEEDS, deliveryFeeMinor, estimatedDelivery, type AddressDto, type DeliveryOption, type DeliverySpeedId } from '@/lib/domain/shipping';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { cartItems, carts } from '@/lib/server/cart/tables';
import { colors, productImages, products, sizes, variantPrices, variants } from '@/lib/server/catalogue/tables';
import { payments } from '@/lib/server/payments/tables';
import type { SessionUser } from '@/lib/server/accounts/sessions';
import type { ReadMemo } from '@/lib/server/infra/read-memo';
import type { ShippingService } from './shipping';
import { fill, message, named } from '@/lib/domain/messages';
import { normaliseCode } from '@/lib/domain/promotions';
import { OPEN_PAYMENT_STATUSES } from '@/lib/domain/payments';
import type { AppliedDiscount, DiscountLine, PromotionService } from '@/lib/server/promotions/promotions';
import type { CodeTries } from '@/lib/server/promotions/code-tries';

export type { AppliedDiscount } from '@/lib/server/promotions/promotions';

/** The promotions service as the cart uses it: checks a code for a cart, or throws Invalid with the reason. */
export type DiscountEvaluator = Pick<PromotionService, 'evaluate'>;

/** Without a promotions service no code applies. */
const NO_PROMOTIONS: DiscountEvaluator = {
  async evaluate() {
    throw new Invalid(message('code-not-valid'));
  },
};

/** One priced cart line, minor units; what a payment snapshot and an order item are made from. */
export interface PricedLine extends CartLineBase {
  variantId: number;
  stock: number;
  active: boolean;
  /** Sold in the cart's market: the variant has a price there. */
  priced: boolean;
  unitPriceMinor: number;
  lineTotalMinor: number;
  categoryId: number | null;
  /** This line's share of the cart's discount (0 without one). */
  discountMinor: number;
}

export interface PricedCart {
  cartId: string;
  lines: PricedLine[];
  deliveryOption: DeliveryOption;
  deliverySpeed: DeliverySpeedId;
  deliveryAddress: AddressDto | null;
  pickupAddress: AddressDto;
  subtotalMinor: number;
  /** The applied code's discount (off the subtotal, never delivery), or null without a code that applies. */
  discount: AppliedDiscount | null;
  discountMinor: number;
  deliveryFeeMinor: number;
  /** subtotal - discount + delivery. */
  totalMinor: number;
  currency: CurrencyCode;
  market: MarketCode;
  /** The market the cart was priced in before this read, when the shopper has just changed market. */
  repricedFrom: MarketCode | null;
  /** Set when the cart's code stopped applying on this read (and was taken off): what to tell the shopper. */
  discountDropped: string | null;
}

const CART_IMAGE_WIDTH = 320;

const discountLine = (l: PricedLine): DiscountLine => ({ variantId: l.variantId, categoryId: l.categoryId, lineTotalMinor: l.priced ? l.lineTotalMinor : 0 });

/** The line's picture: the first image of its colour (the cart, the order, its mail and the back office show it), else the product's first. */
const lineImageHash = sql<string | null>`(select ${productImages.mediaHash} from ${productImages} where ${productImages.productId} = ${products.id} order by (${productImages.colorId} is not distinct from ${variants.colorId}) desc, ${productImages.position} limit 1)`;

/** The cart count on a signed-in shopper's pages, kept a few seconds per app server, and dropped by every change of their lines. */
const cartCountTag = (userId: string) => `cart-lines:${userId}`;
const COUNTS_KEPT = 20_000;
const COUNT_MS = 10_000;

/** The shopper's cart: one per user, priced from the database on every read. */
export function createCartService({
  db,
  shipping,
  promotions = NO_PROMOTIONS,
  codeTries = (_userId, _ip, work) => work(),
  memo,
  invalidate = async (tags) => memo?.invalidate(tags),
}: {
  db: Db;
  shipping: ShippingService;
  promotions?: DiscountEvaluator;
  /** Limits the codes a shopper tries (createCodeTries); without it, tries are not limited. */
  codeTries?: CodeTries;
  memo?: ReadMemo;
  /** Drops tagged memo entries on every app server, this one included (services.pageCache.invalidate). */
  invalidate?: (tags: string[]) => Promise<void>;
}) {
  const counts = memo?.shelf(COUNTS_KEPT, COUNT_MS);
  /** After a change of the user's lines is written: their count is read again, on every app server. */
  const linesChanged = (userId: string) => invalidate([cartCountTag(userId)]).catch(() => undefined); // kept COUNT_MS at most anyway
  async function loadCount(userId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(cartItems)
      .innerJoin(carts, eq(carts.id, cartItems.cartId))
      .where(eq(carts.userId, userId));
    return row?.n ?? 0;
  }

  async function cartRow(userId: string, tx: Db | Tx = db) {
    await tx.insert(carts).values({ userId }).onConflictDoNothing({ target: carts.userId });
    const [row] = await tx.select().from(carts).where(eq(carts.userId, userId)).limit(1);
    return row!;
  }

  async function lines(cartId: string, market: MarketCode, tx: Db | Tx = db): Promise<PricedLine[]> {
    const rows = await tx
      .select({
        variantId: variants.id,
        productId: products.id,
        productName: products.name,
        categoryId: products.categoryId,
        priceMinor: variantPrices.priceMinor,
        active: products.active,
        imageHash: lineImageHash,
        color: colors.name,
        size: sizes.name,
        stock: variants.stock,
        quantity: cartItems.quantity,
      })
      .from(cartItems)
      .innerJoin(variants, eq(variants.id, cartItems.variantId))
      .innerJoin(products, eq(products.id, variants.productId))
      .leftJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
      .leftJoin(colors, eq(colors.id, variants.colorId))
      .leftJoin(sizes, eq(sizes.id, variants.sizeId))
      .where(eq(cartItems.cartId, cartId))
      .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
    return rows.map((r) => ({
      variantId: r.variantId,
      productId: r.productId,
      productName: r.productName,
      productImage: r.imageHash ? imageUrl(r.imageHash, CART_IMAGE_WIDTH) : PLACEHOLDER_IMAGE,
      color: r.color,
      size: r.size,
      quantity: r.quantity,
      stock: r.stock,
      active: r.active,
      // A variant without a price in this market is not sold here (it stays in the cart, unpriced).
      priced: r.priceMinor !== null,
      unitPriceMinor: r.priceMinor ?? 0,
      lineTotalMinor: lineTotalMinor(r.priceMinor ?? 0, r.quantity),
      categoryId: r.categoryId,
      discountMinor: 0,
    }));
  }

  /**
   * Prices the cart in the shopper's market. When the market differs from the one the cart was
   * last priced in, the cart moves to it (re-priced from that market's prices) and says so.
   */
  async function price(user: SessionUser, market: MarketCode = DEFAULT_MARKET, tx: Db | Tx = db): Promise<PricedCart> {
    const cart = await cartRow(user.id, tx);
    let repricedFrom: MarketCode | null = null;
    if (cart.market !== market) {
      await tx.update(carts).set({ market }).where(eq(carts.id, cart.id));
      repricedFrom = parseMarket(cart.market);
    }
    const currency = MARKETS[market].currency;
    let priced = await lines(cart.id, market, tx);
    // Money arithmetic refuses to mix currencies (src/lib/domain/money.ts).
    const subtotal = sumMoney(currency, priced.map((l) => timesMoney(money(l.unitPriceMinor, currency), l.quantity)));
    // The applied code is checked again on every pricing: a code that no longer applies comes off, and the shopper is told.
    let discount: AppliedDiscount | null = null;
    let discountDropped: string | null = null;
    if (cart.discountCode && priced.length > 0) {
      try {
        discount = await promotions.evaluate(cart.discountCode, { userId: user.id, email: user.email, market, currency, lines: priced.map(discountLine) }, tx);
        const shares = discount.lineDiscountsMinor;
        priced = priced.map((l, i) => ({ ...l, discountMinor: shares[i] ?? 0 }));
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'invalid') throw err;
        await tx.update(carts).set({ discountCode: null }).where(and(eq(carts.id, cart.id), eq(carts.discountCode, cart.discountCode)));
        discountDropped = repricedFrom ? message('code-no-longer-applies', market) : err.message;
      }
    }
    const discountMinor = discount?.discountMinor ?? 0;
    const quote = await shipping.quote(user.id, cart.deliveryOption, market, tx, cart.deliverySpeed, subtotal.minor - discountMinor, cart.deliveryAddressId);
    // Total = subtotal - discount + delivery; the discount is never more than the subtotal (the promotions service caps it).
    const total = addMoney(addMoney(subtotal, money(-discountMinor, currency)), money(quote.feeMinor, currency));
    return {
      cartId: cart.id,
      lines: priced,
      deliveryOption: quote.option,
      deliverySpeed: quote.speed,
      deliveryAddress: quote.deliveryAddress,
      pickupAddress: quote.pickupAddress,
      subtotalMinor: subtotal.minor,
      discount,
      discountMinor,
      deliveryFeeMinor: quote.feeMinor,
      totalMinor: total.minor,
      currency,
      market,
      repricedFrom: priced.length > 0 ? repricedFrom : null,
      discountDropped,
    };
  }

  /** The speeds checkout offers for this cart: each one's fee to its delivery address, and when it would arrive if ordered now. */
  function speedChoices(p: PricedCart): DeliverySpeedChoice[] {
    const country = p.deliveryAddress?.country ?? null;
    return DELIVERY_SPEEDS.map((s) => ({
      id: s.id,
      name: s.name,
      days: s.days,
      fee: toMajor(deliveryFeeMinor('delivery', p.currency, country, s.id, p.subtotalMinor - p.discountMinor) ?? s.feeMinor[p.currency]),
      estimate: estimatedDelivery(s.id, new Date()),
    }));
  }

  function quoteOf(p: PricedCart): CartQuote {
    return { subtotalMinor: p.subtotalMinor, discountMinor: p.discountMinor, deliveryFeeMinor: p.deliveryFeeMinor, totalMinor: p.totalMinor };
  }

  function toDto(p: PricedCart): CartDto {
    const notices = [p.repricedFrom ? `Your cart is now priced for ${marketLabel(p.market)}.` : null, p.discountDropped].filter((n): n is string => n !== null);
    return {
      id: p.cartId,
      items: p.lines.map((l) => ({
        productId: l.productId,
        productName: l.productName,
        productImage: l.productImage,
        color: l.color,
        size: l.size,
        quantity: l.quantity,
        price: toMajor(l.lineTotalMinor),
        unitPrice: toMajor(l.unitPriceMinor),
        stock: l.stock,
      })),
      deliveryAddress: p.deliveryAddress,
      pickupAddress: p.pickupAddress,
      deliveryOption: apiDeliveryOption(p.deliveryOption),
      deliverySpeed: p.deliverySpeed,
      deliverySpeeds: speedChoices(p),
      deliveryFee: toMajor(p.deliveryFeeMinor),
      subtotal: toMajor(p.subtotalMinor),
      discount: toMajor(p.discountMinor),
      discountCode: p.discount?.code ?? null,
      total: toMajor(p.totalMinor),
      quote: quoteOf(p),
      currency: p.currency,
      market: p.market,
      ...(notices.length ? { notice: notices.join(' ') } : {}),
    };
  }

  /** Finds the variant a shopper means. A size or colour may be left out only where there is no choice. */
  async function resolveVariant(key: Pick<LineKey, 'productId' | 'color' | 'size'>, market: MarketCode) {
    const [product] = await db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(and(eq(products.id, key.productId), eq(products.active, true)))
      .limit(1);
    if (!product) throw new NotFound(message('product-not-found'));
    // Only the variants with a price in the market are sold there.
    const options = await db
      .select({ id: variants.id, stock: variants.stock, color: colors.name, size: sizes.name })
      .from(variants)
      .innerJoin(variantPrices, and(eq(variantPrices.variantId, variants.id), eq(variantPrices.market, market)))
      .leftJoin(colors, eq(colors.id, variants.colorId))
      .leftJoin(sizes, eq(sizes.id, variants.sizeId))
      .where(eq(variants.productId, product.id));
    if (options.length === 0) throw new Invalid(named('item-not-sold', product.name, MARKETS[market].countryName));
    const pick = (field: 'color' | 'size', wanted: string | undefined, what: 'colour' | 'size'): string | null => {
      const names = [...new Set(options.map((o) => o[field]).filter((n): n is string => n !== null))];
      if (names.length === 0) {
        if (wanted) throw new Invalid(fill('option-none', what));
        return null;
      }
      if (!wanted) {
        if (names.length === 1) return names[0]!;
        throw new Invalid(fill('option-required', what));
      }
      const match = names.find((n) => n.toLowerCase() === wanted.toLowerCase());
      if (!match) throw new Invalid(named(what === 'colour' ? 'colour-unavailable' : 'size-unavailable', wanted));
      return match;
    };
    const color = pick('color', key.color, 'colour');
    const size = pick('size', key.size, 'size');
    const variant = options.find((o) => o.color === color && o.size === size);
    if (!variant) throw new Invalid(message('combination-unavailable'));
    return { ...variant, productName: product.name, label: variantLabel(product.name, color, size) };
  }

  async function findLine(user: SessionUser, key: Pick<LineKey, 'productId' | 'color' | 'size'>) {
    const cart = await cartRow(user.id);
    const all = await lines(cart.id, parseMarket(cart.market) ?? DEFAULT_MARKET);
    const line = all.find((l) => sameLine(l, { productId: key.productId, color: key.color ?? null, size: key.size ?? null }));
    if (!line) throw new NotFound(message('item-not-in-cart'));
    return { cart, line };
  }

  return {
    price,
    toDto,

    async view(user: SessionUser, market: MarketCode = DEFAULT_MARKET): Promise<CartDto> {
      return toDto(await price(user, market));
    },

    /** Adds to the line (product x colour x size), never past the stock or 10 per line. */
    async add(user: SessionUser, input: AddToCartInput, market: MarketCode = DEFAULT_MARKET): Promise<CartDto> {
      const variant = await resolveVariant(input, market);
      await db.transaction(async (tx) => {
        const cart = await cartRow(user.id, tx);
        // Adds to one cart take turns (the cart row is locked), so parallel adds cannot pass the line limit.
        await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, cart.id)).for('update');
        const [existing] = await tx
          .select({ quantity: cartItems.quantity })
          .from(cartItems)
          .where(and(eq(cartItems.cartId, cart.id), eq(cartItems.variantId, variant.id)))
          .for('update');
        const quantity = (existing?.quantity ?? 0) + input.quantity;
        if (existing && quantity > Math.min(variant.stock, 10) && variant.stock > 0) {
          const more = Math.min(variant.stock, 10) - existing.quantity;
          throw new Invalid(
            more > 0 ? fill('quantity-in-cart', existing.quantity, more) : named('item-most-in-cart', variant.label),
          );
        }
        assertQuantityAllowed(quantity, variant.stock, variant.label);
        if (!existing) {
          const [held] = await tx.select({ n: sql<number>`count(*)::int` }).from(cartItems).where(eq(cartItems.cartId, cart.id));
          assertRoomForNewLine(held?.n ?? 0);
        }
        await tx
          .insert(cartItems)
          .values({ cartId: cart.id, variantId: variant.id, quantity })
          .onConflictDoUpdate({ target: [cartItems.cartId, cartItems.variantId], set: { quantity } });
        await tx.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cart.id));
      });
      await linesChanged(user.id);
      return toDto(await price(user, market));
    },

    /** Sets a line's quantity (or moves it by one); increases are checked against stock. */
    async changeQuantity(user: SessionUser, input: ChangeQuantityInput, direction: 'increase' | 'decrease', market: MarketCode = DEFAULT_MARKET): Promise<CartDto> {
      const { cart, line } = await findLine(user, input);
      const quantity = input.quantity ?? line.quantity + (direction === 'increase' ? 1 : -1);
      if (quantity < 1) throw new Invalid(message('quantity-below-one'));
      if (quantity > line.quantity) assertQuantityAllowed(quantity, line.stock, variantLabel(line.productName, line.color, line.size));
      await db
        .update(cartItems)
        .set({ quantity })
        .where(and(eq(cartItems.cartId, cart.id), eq(cartItems.variantId, line.variantId)));
      return toDto(await price(user, market));
    },

    async remove(user: SessionUser, key: LineKey, market: MarketCode = DEFAULT_MARKET): Promise<CartDto> {
      const { cart, line } = await findLine(user, key);
      await db.delete(cartItems).where(and(eq(cartItems.cartId, cart.id), eq(cartItems.variantId, line.variantId)));
      await linesChanged(user.id);
      return toDto(await price(user, market));
    },

    /**
     * Delivers this order to one of the shopper's saved addresses, without making it the default
     * (null: back to the default); the cart is priced for delivery there.
     */
    async chooseDeliveryAddress(user: SessionUser, addressId: string | null, market: MarketCode = DEFAULT_MARKET): Promise<CartDto> {
      const cart = await cartRow(user.id);
      if (addressId !== null && (await shipping.deliveryAddress(user.id, addressId))?.id !== addressId) throw new NotFound(message('address-not-found'));
      await db.update(carts).set({ deliveryAddressId: addressId, deliveryOption: 'delivery', updatedAt: new Date() }).where(eq(carts.id, cart.id));
      return toDto(await price(user, market));
    },

    /** Chooses delivery or pickup (and a delivery's speed) for the user's own cart; returns the new fee and total (major units). */
    async setDeliveryOption(user: SessionUser, cartId: string, option: DeliveryOption, market: MarketCode = DEFAULT_MARKET, speed?: DeliverySpeedId) {
      const [cart] = await db.select().from(carts).where(sql`${carts.id}::text = ${cartId}`).limit(1);
      if (!cart) throw new NotFound(message('cart-not-found'));
      if (cart.userId !== user.id) throw new Forbidden(message('cart-other-account'));
      if (option === 'delivery' && !(await shipping.deliveryAddress(user.id, cart.deliveryAddressId))) {
        throw new Invalid(message('delivery-needs-address'));
      }
      await db
        .update(carts)
        .set({ deliveryOption: option, ...(speed ? { deliverySpeed: speed } : {}), updatedAt: new Date() })
        .where(eq(carts.id, cart.id));
      const priced = await price(user, market);
      return {
        deliveryOption: apiDeliveryOption(priced.deliveryOption),
        deliverySpeed: priced.deliverySpeed,
        deliveryFee: toMajor(priced.deliveryFeeMinor),
        subtotal: toMajor(priced.subtotalMinor),
        discount: toMajor(priced.discountMinor),
        discountCode: priced.discount?.code ?? null,
        totalFee: toMajor(priced.totalMinor),
        quote: quoteOf(priced),
        currency: priced.currency,
      };
    },

    /** Takes the lines a paid checkout bought out of its cart, and its code (one code per order), inside the caller's transaction (the payment's fulfil). */
    /**
     * A checkout's start (in the transaction that creates its payment): takes the cart's row lock, so
     * two starts of one cart go one after the other, and returns what the cart holds now.
     */
    async lockForCheckout(tx: Tx, cartId: string): Promise<{ variantId: number; quantity: number }[]> {
      await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, cartId)).for('update');
      return tx.select({ variantId: cartItems.variantId, quantity: cartItems.quantity }).from(cartItems).where(eq(cartItems.cartId, cartId));
    },

    async removeBought(tx: Tx, cartId: string, variantIds: number[]): Promise<void> {
      await tx.delete(cartItems).where(and(eq(cartItems.cartId, cartId), inArray(cartItems.variantId, variantIds)));
      // The code and an address chosen for this order were this order's.
      const [owner] = await tx.update(carts).set({ discountCode: null, deliveryAddressId: null }).where(eq(carts.id, cartId)).returning({ userId: carts.userId });
      // Before the order's transaction commits: a count read in between is kept at most COUNT_MS.
      if (owner) await linesChanged(owner.userId);
    },

    /**
     * Applies a discount code to the shopper's cart (one code per cart: it replaces any other).
     * The code is checked against the cart as it is now; a code that does not apply is refused
     * with the reason (Invalid: not valid, expired, already used, spend at least…) and not kept.
     */
    async applyCode(user: SessionUser, input: string, market: MarketCode = DEFAULT_MARKET, ip: string | null = null): Promise<CartDto> {
      const code = normaliseCode(input);
      if (!code) throw new Invalid(message('code-not-valid'));
      const current = await price(user, market);
      if (current.lines.length === 0) throw new Invalid(message('cart-empty'));
      // The check gives the reason a code does not apply; only a code that applies is kept.
      await codeTries(user.id, ip, () =>
        promotions.evaluate(code, { userId: user.id, email: user.email, market, currency: current.currency, lines: current.lines.map(discountLine) }),
      );
      await db.update(carts).set({ discountCode: code, updatedAt: new Date() }).where(eq(carts.id, current.cartId));
      return toDto(await price(user, market));
    },

    /** Takes the code off the shopper's cart (nothing happens when there is none). */
    async removeCode(user: SessionUser, market: MarketCode = DEFAULT_MARKET): Promise<CartDto> {
      const cart = await cartRow(user.id);
      await db.update(carts).set({ discountCode: null, updatedAt: new Date() }).where(eq(carts.id, cart.id));
      return toDto(await price(user, market));
    },

    /** How many lines the user's cart has (the header's count). */
    count(user: SessionUser): Promise<number> {
      return counts ? counts.get(`cart-lines:${user.id}`, () => loadCount(user.id), () => [cartCountTag(user.id)]) : loadCount(user.id);
    },
  };
}
export type CartService = ReturnType<typeof createCartService>;

/** An account's deletion deletes its cart (its lines go with it). */
export async function eraseCartOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(carts).where(eq(carts.userId, userId));
}

/**
 * Retention: deletes carts (and their lines) nobody has touched since `cutoff`: neither the cart
 * nor a line changed since, and no payment of it still open. Answers how many carts went.
 */
export async function purgeCartsUntouchedSince(db: Db, cutoff: Date): Promise<number> {
  const gone = await db
    .delete(carts)
    .where(
      and(
        sql`${carts.updatedAt} < ${cutoff.toISOString()}::timestamptz`,
        sql`not exists (select 1 from ${cartItems} where ${cartItems.cartId} = ${carts.id} and ${cartItems.createdAt} >= ${cutoff.toISOString()}::timestamptz)`,
        sql`not exists (select 1 from ${payments} where ${payments.cartId} = ${carts.id} and ${inArray(payments.status, OPEN_PAYMENT_STATUSES)})`,
      ),
    )
    .returning({ id: carts.id });
  return gone.length;
}
