import type { VariantDto } from './catalogue';

/** What choosing needs of a variant: its options and stock (not its price). */
type VariantOptions = Pick<VariantDto, 'size' | 'color' | 'stock'>;

/** A shopper's size and colour choice on the product page (null when the product has none). */
export interface VariantChoice {
  size: string | null;
  color: string | null;
}

/** Whether the exact size and colour combination has stock. */
export function isAvailable(variants: readonly VariantOptions[], choice: VariantChoice): boolean {
  return variants.some((v) => v.size === choice.size && v.color === choice.color && v.stock > 0);
}

/**
 * The combination preselected on the product page: the first variant in stock, so
 * ADD TO CART works without choosing; the first variant when all are sold out.
 */
export function firstInStock(variants: readonly VariantOptions[]): VariantChoice {
  const v = variants.find((x) => x.stock > 0) ?? variants[0];
  return { size: v?.size ?? null, color: v?.color ?? null };
}

/**
 * The options of one kind (sizes or colours) in display order, each marked in stock
 * when any variant with it has stock. `order` lists the names in the wanted order;
 * values found only in variants are appended.
 */
export function optionAvailability(
  variants: readonly VariantOptions[],
  key: 'size' | 'color',
  order: readonly string[] = [],
): { value: string; inStock: boolean }[] {
  const values = [...order];
  for (const v of variants) {
    const value = v[key];
    if (value !== null && !values.includes(value)) values.push(value);
  }
  return values
    .filter((value) => variants.some((v) => v[key] === value))
    .map((value) => ({ value, inStock: variants.some((v) => v[key] === value && v.stock > 0) }));
}

/**
 * Whether each option of one kind can be bought with the shopper's other choice: a size is
 * sold out in the chosen colour, a colour in the chosen size. With the other choice not made
 * yet, an option is sold out only when no variant with it has stock. `soldOutIn` names the
 * other choice the option is sold out in (null: sold out whatever the other choice).
 */
export function optionsWith(
  variants: readonly VariantOptions[],
  key: 'size' | 'color',
  choice: VariantChoice,
  order: readonly string[] = [],
): { value: string; inStock: boolean; soldOutIn: string | null }[] {
  const other = key === 'size' ? 'color' : 'size';
  const otherValue = choice[other];
  return optionAvailability(variants, key, order).map(({ value, inStock }) => {
    if (!inStock || otherValue === null) return { value, inStock, soldOutIn: null };
    const withBoth = variants.some((v) => v[key] === value && v[other] === otherValue && v.stock > 0);
    return { value, inStock: withBoth, soldOutIn: withBoth ? null : otherValue };
  });
}
