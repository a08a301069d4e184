/**
 * The parcel a courier is quoted and booked for, by the product's top category (its slug). A
 * luxury piece travels boxed, so sizes are the store's boxes, not the garment: a dress ships in a
 * garment box, a bag in its dust bag inside a rigid box. PARCEL_SIZES (configuration) overrides any
 * row; a category not listed uses `default`.
 */
export interface ParcelSize {
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

export const DEFAULT_PARCEL_SIZES: Readonly<Record<string, ParcelSize>> = {
  bags: { weightGrams: 2000, lengthCm: 45, widthCm: 35, heightCm: 20 },
  clothing: { weightGrams: 1200, lengthCm: 40, widthCm: 30, heightCm: 10 },
  shoes: { weightGrams: 1800, lengthCm: 36, widthCm: 24, heightCm: 14 },
  accessories: { weightGrams: 600, lengthCm: 25, widthCm: 20, heightCm: 8 },
  default: { weightGrams: 1500, lengthCm: 40, widthCm: 30, heightCm: 15 },
};

/** The size for a category slug, from the configured table (which always has `default`). */
export function parcelSizeFor(sizes: Readonly<Record<string, ParcelSize>>, categorySlug: string | null | undefined): ParcelSize {
  return (categorySlug && sizes[categorySlug]) || sizes.default || DEFAULT_PARCEL_SIZES.default!;
}

/**
 * The one parcel an order travels in: each piece in its category's box, the boxes stacked (the
 * widest footprint, the heights added) and their weights added. An order with no lines found
 * travels in the `default` box.
 */
export function parcelForItems(sizes: Readonly<Record<string, ParcelSize>>, items: readonly { categorySlug: string | null; quantity: number }[]): ParcelSize {
  const boxes = items.flatMap((i) => Array.from({ length: Math.max(1, i.quantity) }, () => parcelSizeFor(sizes, i.categorySlug)));
  if (boxes.length === 0) return parcelSizeFor(sizes, null);
  const widest = boxes.reduce((a, b) => (b.lengthCm * b.widthCm > a.lengthCm * a.widthCm ? b : a));
  return {
    weightGrams: boxes.reduce((s, b) => s + b.weightGrams, 0),
    lengthCm: widest.lengthCm,
    widthCm: widest.widthCm,
    heightCm: boxes.reduce((s, b) => s + b.heightCm, 0),
  };
}
