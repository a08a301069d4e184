import { describe, expect, it } from 'vitest';
import { checkRows, columnOf, parseAmount, readHeader, recordOf, sizesOfGuide, summarise, changesNothing, type CatalogueView, type ExistingProduct, type ImportColumn } from '@/lib/domain/catalogue-import';

const view: CatalogueView = {
  colours: [
    { id: 1, name: 'Black' },
    { id: 2, name: 'Ivory' },
  ],
  sizes: ['EU 37', 'EU 38', 'EU 39', 'EU 47', 'S', 'M'].map((name, i) => ({ id: 10 + i, name })),
  categories: [
    { id: 100, path: 'Shoes > Heels', sizes: ['EU 37', 'EU 38', 'EU 39'], guide: 'Shoes' },
    { id: 101, path: 'Bags > Totes', sizes: [], guide: null },
  ],
  skuHandles: new Map([['taken-1', 'someone-elses-bag']]),
  designers: [{ id: 5, name: 'Adébáyọ̀ Atelier' }],
};

const HEADER = ['Handle', 'Title', 'Description', 'Category', 'Status', 'Option1 Colour', 'Option2 Size', 'SKU', 'Inventory', 'Price NG', 'Price ZA', 'Compare-at NG', 'Image Src'];

function check(lines: string[][]) {
  const { columns } = readHeader(HEADER);
  const present = new Set(columns.filter((c): c is ImportColumn => c !== null));
  return checkRows(
    lines.map((cells, i) => ({ row: i + 2, cells: recordOf(columns, cells) })),
    present,
    view,
  );
}

describe('the import rows', () => {
  it('reads Shopify headers and amounts as spreadsheets write them', () => {
    expect(columnOf('\uFEFFHandle')).toBe('Handle');
    expect(columnOf('Variant SKU')).toBe('SKU');
    expect(columnOf('Body (HTML)')).toBe('Description');
    expect(columnOf('Unknown')).toBeNull();
    expect(parseAmount('450000')).toBe(45_000_000);
    expect(parseAmount('450,000.50')).toBe(45_000_050);
    expect(parseAmount('450 000,5')).toBe(45_000_050);
    expect(parseAmount('₦12')).toBe(1200);
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('-5')).toBeNull();
    expect(readHeader(['Title']).problems).toEqual([{ row: 1, column: 'Handle', message: 'The file has no Handle column.' }]);
  });

  it('groups rows by handle into products with their variants and pictures', () => {
    const { products, problems } = check([
      ['amara-pumps', 'Amara Pumps', 'Patent', 'Shoes > Heels', 'active', 'Black', 'EU 37', 'AP-37', '3', '250000', '3200', '', 'amara.jpg'],
      ['amara-pumps', '', '', '', '', 'Black', 'EU 38', 'AP-38', '2', '250000', '', '', ''],
      ['amara-pumps', '', '', '', '', '', '', '', '', '', '', '', 'amara-2.jpg'],
    ]);
    expect(problems).toEqual([]);
    expect(products).toHaveLength(1);
    expect(products[0]).toMatchObject({ handle: 'amara-pumps', title: 'Amara Pumps', categoryId: 100, status: 'active' });
    expect(products[0]!.variants.map((v) => [v.sku, v.colourId, v.sizeId, v.stock, v.prices])).toEqual([
      ['AP-37', 1, 10, 3, { NG: 25_000_000, ZA: 320_000 }],
      ['AP-38', 1, 11, 2, { NG: 25_000_000, ZA: null }],
    ]);
    expect(products[0]!.images.map((i) => i.src)).toEqual(['amara.jpg', 'amara-2.jpg']);
  });

  it('lists every problem at once, by row and column', () => {
    const { problems } = check([
      ['zuri-pumps', '', 'x', 'Shoes > Heels', '', 'Black', 'EU 37', 'Z-1', '1', '100', '', '', ''],
      ['ife-pumps', 'Ife Pumps', 'x', 'Shoes > Heels', '', 'black', 'EU 47', 'I-1', '1', 'ten', '', '', ''],
      ['ife-pumps', 'Ife Mules', '', '', '', 'Black', 'EU 38', 'taken-1', '1', '100', '', '50', ''],
      ['kemi-tote', 'Kemi Tote', 'x', 'Bags > Totes', 'gone', 'Teal', 'S', 'K-1', 'two', '100', '', '', ''],
      ['sade-tote', 'Sade Tote', 'x', 'Bags > Nowhere', '', '', '', 'K-1', '1', '', '', '', ''],
    ]);
    expect(problems.map((p) => [p.row, p.column])).toEqual([
      [2, 'Title'],
      [3, 'Option1 Colour'],
      [3, 'Option2 Size'],
      [3, 'Price NG'],
      [4, 'Title'],
      [4, 'SKU'],
      [4, 'Compare-at NG'],
      [5, 'Status'],
      [5, 'Option1 Colour'],
      [5, 'Option2 Size'],
      [5, 'Inventory'],
      [6, 'Category'],
      [6, 'SKU'],
      [6, 'Price NG'],
    ]);
    const text = problems.map((p) => p.message).join('\n');
    expect(text).toContain('The Title cell is empty.');
    expect(text).toContain('The colour "black" is written "Black" on row 2. Write a colour one way.');
    expect(text).toContain('The size "EU 47" is not in the Shoes size guide.');
    expect(text).toContain('The Price NG "ten" is not a number.');
    expect(text).toContain('The handle ife-pumps is titled "Ife Pumps" on an earlier row.');
    expect(text).toContain('The SKU taken-1 belongs to another product (someone-elses-bag).');
    expect(text).toContain('The SKU K-1 is already on row 5.');
    expect(text).toContain('Pieces in Bags > Totes come in one size.');
    expect(text).toContain('There is no category "Bags > Nowhere".');
  });

  it('a category keeps its size guide: a shoe category takes every EU size, an empty one any guide size', () => {
    const all = ['EU 37', 'EU 38', 'EU 44', 'S', 'M', '80 cm'];
    expect(sizesOfGuide(['EU 37'], all, true)).toEqual({ sizes: ['EU 37', 'EU 38', 'EU 44'], guide: 'Shoes' });
    expect(sizesOfGuide([], all, true)).toEqual({ sizes: [], guide: null });
    expect(sizesOfGuide([], all, false).sizes).toEqual(all);
  });

  it('summarises what would change, and an unchanged file changes nothing', () => {
    const { products } = check([['amara-pumps', 'Amara Pumps', 'Patent', 'Shoes > Heels', 'active', 'Black', 'EU 37', 'AP-37', '3', '2500', '', '', '']]);
    const existing: ExistingProduct = { id: 7, handle: 'amara-pumps', title: 'Amara Pumps', description: 'Patent', categoryId: 100, active: true, designer: null, variants: [{ id: 70, sku: 'AP-37', colourId: 1, sizeId: 10, stock: 3, prices: { NG: 250_000 } }], images: [] };
    const same = summarise(products, new Map([['amara-pumps', existing]]), new Map(), new Set());
    expect(changesNothing(same)).toBe(true);
    expect(same.products.unchanged).toBe(1);
    const cheaper = summarise(products, new Map([['amara-pumps', { ...existing, variants: [{ ...existing.variants[0]!, prices: { NG: 300_000 }, stock: 1 }] }]]), new Map(), new Set(['Compare-at NG']));
    expect(cheaper).toMatchObject({ products: { updated: 1 }, variants: { updated: 1 }, stockSet: 1, priceChanges: [{ handle: 'amara-pumps', sku: 'AP-37', market: 'NG', before: 300_000, after: 250_000 }], notApplied: ['Compare-at NG'] });
    const fresh = summarise(products, new Map(), new Map(), new Set());
    expect(fresh).toMatchObject({ products: { created: 1 }, variants: { created: 1 }, stockSet: 1 });
  });

  it('reads the Brand column as the designer: any case names the one the store has, a new name is added, an absent column leaves it', () => {
    const header = ['Handle', 'Title', 'Brand', 'Category', 'Option1 Colour', 'SKU', 'Price NG'];
    const rows = (brand: string) => {
      const { columns } = readHeader(header);
      return checkRows([{ row: 2, cells: recordOf(columns, ['amara-pumps', 'Amara Pumps', brand, 'Shoes > Heels', 'Black', 'AP-37', '2500']) }], new Set(columns.filter((c): c is ImportColumn => c !== null)), view);
    };
    const existing: ExistingProduct = { id: 7, handle: 'amara-pumps', title: 'Amara Pumps', description: '', categoryId: 100, active: true, designer: 'Adébáyọ̀ Atelier', variants: [{ id: 70, sku: 'AP-37', colourId: 1, sizeId: null, stock: 0, prices: { NG: 250_000 } }], images: [] };
    const same = rows('  adébáyọ̀   atelier ');
    expect(same.problems).toEqual([]);
    expect(same.products[0]!.designer).toBe('adébáyọ̀ atelier');
    expect(changesNothing(summarise(same.products, new Map([['amara-pumps', existing]]), new Map(), new Set(['Brand']), view.designers))).toBe(true);
    const other = summarise(rows('Kloof & Kin').products, new Map([['amara-pumps', existing]]), new Map(), new Set(['Brand']), view.designers);
    expect(other).toMatchObject({ products: { updated: 1 }, designersCreated: ['Kloof & Kin'], notApplied: [] });
    expect(rows('').products[0]!.designer).toBeNull();
    expect(rows('x'.repeat(101)).problems).toEqual([{ row: 2, column: 'Brand', message: 'A designer name has at most 100 characters.' }]);
    expect(check([['amara-pumps', 'Amara Pumps', 'Patent', 'Shoes > Heels', 'active', 'Black', 'EU 37', 'AP-37', '3', '2500', '', '', '']]).products[0]!.designer).toBeUndefined();
  });
});
