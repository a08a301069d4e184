import { describe, expect, it } from 'vitest';
import { toggleParam } from '@/lib/client/filters';
import { CARD_WIDTHS, pictureSources } from '@/lib/client/pictures';
import type { VariantDto } from '@/lib/domain/catalogue';
import { PLACEHOLDER_IMAGE } from '@/lib/domain/images';
import { firstInStock, isAvailable, optionAvailability, optionsWith } from '@/lib/domain/variants';

const HASH = 'a'.repeat(32);

describe('pictureSources', () => {
  it('builds AVIF and WebP srcsets for our media URLs', () => {
    const pic = pictureSources(`/media/${HASH}/640.webp`, CARD_WIDTHS);
    expect(pic.src).toBe(`/media/${HASH}/640.webp`);
    expect(pic.avif).toBe(`/media/${HASH}/160.avif 160w, /media/${HASH}/320.avif 320w, /media/${HASH}/480.avif 480w, /media/${HASH}/640.avif 640w`);
    expect(pic.webp?.split(', ')).toHaveLength(4);
  });
  it('uses the placeholder when there is no image and foreign URLs as they are', () => {
    expect(pictureSources(undefined)).toEqual({ src: PLACEHOLDER_IMAGE });
    expect(pictureSources('')).toEqual({ src: PLACEHOLDER_IMAGE });
    expect(pictureSources('https://cdn.example.com/x.jpg')).toEqual({ src: 'https://cdn.example.com/x.jpg' });
  });
});

describe('toggleParam', () => {
  it('adds a filter, keeps the others and drops the page', () => {
    const qs = toggleParam(new URLSearchParams('categoryId=1&page=3'), 'color', '5');
    expect(new URLSearchParams(qs).get('color')).toBe('5');
    expect(new URLSearchParams(qs).get('categoryId')).toBe('1');
    expect(new URLSearchParams(qs).has('page')).toBe(false);
  });
  it('removes the filter when chosen again, and replaces a different value', () => {
    expect(toggleParam(new URLSearchParams('categoryId=1&color=5'), 'color', '5')).toBe('?categoryId=1');
    expect(toggleParam(new URLSearchParams('color=5'), 'color', '5')).toBe('');
    expect(toggleParam(new URLSearchParams('color=5'), 'color', '6')).toBe('?color=6');
  });
});

describe('variant choice', () => {
  const variants: Omit<VariantDto, 'price' | 'sku'>[] = [
    { id: 1, size: 'S', color: 'Black', stock: 0 },
    { id: 2, size: 'S', color: 'Ivory', stock: 0 },
    { id: 3, size: 'M', color: 'Black', stock: 0 },
    { id: 4, size: 'M', color: 'Ivory', stock: 2 },
    { id: 5, size: 'L', color: 'Black', stock: 4 },
  ];
  it('preselects the first combination in stock', () => {
    expect(firstInStock(variants)).toEqual({ size: 'M', color: 'Ivory' });
    expect(firstInStock([{ size: null, color: 'Tan', stock: 0 }])).toEqual({ size: null, color: 'Tan' });
    expect(firstInStock([])).toEqual({ size: null, color: null });
  });
  it('knows which exact combinations are available', () => {
    expect(isAvailable(variants, { size: 'M', color: 'Ivory' })).toBe(true);
    expect(isAvailable(variants, { size: 'M', color: 'Black' })).toBe(false);
    expect(isAvailable(variants, { size: 'XL', color: 'Black' })).toBe(false);
  });
  it('marks options sold out only when no variant with them has stock, in the given order', () => {
    expect(optionAvailability(variants, 'size', ['S', 'M', 'L', 'XL'])).toEqual([
      { value: 'S', inStock: false },
      { value: 'M', inStock: true },
      { value: 'L', inStock: true },
    ]);
    expect(optionAvailability(variants, 'color')).toEqual([
      { value: 'Black', inStock: true },
      { value: 'Ivory', inStock: true },
    ]);
    expect(optionAvailability([{ size: null, color: 'Tan', stock: 1 }], 'size')).toEqual([]);
  });
  it('marks an option sold out in the other choice, naming it, and only wholly sold out before that choice is made', () => {
    expect(optionsWith(variants, 'size', { size: null, color: 'Black' }, ['S', 'M', 'L'])).toEqual([
      { value: 'S', inStock: false, soldOutIn: null },
      { value: 'M', inStock: false, soldOutIn: 'Black' },
      { value: 'L', inStock: true, soldOutIn: null },
    ]);
    expect(optionsWith(variants, 'color', { size: 'M', color: 'Black' })).toEqual([
      { value: 'Black', inStock: false, soldOutIn: 'M' },
      { value: 'Ivory', inStock: true, soldOutIn: null },
    ]);
    expect(optionsWith(variants, 'color', { size: null, color: 'Black' })).toEqual(optionAvailability(variants, 'color').map((o) => ({ ...o, soldOutIn: null })));
  });
});
