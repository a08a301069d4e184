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
