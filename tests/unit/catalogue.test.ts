import { describe, expect, it } from 'vitest';
import { collectionQueryFromSearch, productQuerySchema } from '@/lib/domain/catalogue';
import { hashFromImageUrl, imageUrl, isImageWidth, srcset } from '@/lib/domain/images';

describe('product query', () => {
  it('applies defaults and coerces ids', () => {
    expect(productQuerySchema.parse({ categoryId: '3' })).toEqual({ categoryId: 3, sort: 'relevant', page: 1, limit: 48 });
  });

  it('treats empty parameters as absent', () => {
    expect(productQuerySchema.parse({ colorId: '', q: '  ', sort: '' })).toEqual({ sort: 'relevant', page: 1, limit: 48 });
  });

  it('rejects unknown sorts, non-numeric ids and oversize limits', () => {
    expect(productQuerySchema.safeParse({ sort: 'cheap' }).success).toBe(false);
    expect(productQuerySchema.safeParse({ colorId: 'red' }).success).toBe(false);
    expect(productQuerySchema.safeParse({ limit: '500' }).success).toBe(false);
    expect(productQuerySchema.safeParse({ categoryId: '-1' }).success).toBe(false);
  });

  it('maps the collection page parameters onto API names', () => {
    const q = collectionQueryFromSearch(new URLSearchParams('categoryId=1&color=4&size=2&subCategory=7&sort=low-high'));
    expect(productQuerySchema.parse(q)).toMatchObject({ categoryId: 1, colorId: 4, sizeId: 2, subCategoryId: 7, sort: 'low-high' });
  });
});

describe('image URLs', () => {
  const hash = 'a'.repeat(32);
  it('builds and parses rendition URLs', () => {
    expect(imageUrl(hash, 640)).toBe(`/media/${hash}/640.webp`);
    expect(hashFromImageUrl(`/media/${hash}/640.webp`)).toBe(hash);
    expect(hashFromImageUrl('https://elsewhere.example/x.png')).toBeNull();
    expect(srcset(hash, 'avif', [320, 640])).toBe(`/media/${hash}/320.avif 320w, /media/${hash}/640.avif 640w`);
    expect(isImageWidth(640)).toBe(true);
    expect(isImageWidth(641)).toBe(false);
  });
});
