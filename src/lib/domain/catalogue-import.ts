/**
 * The catalogue's spreadsheet: one layout for the export and the import (Shopify's product CSV
 * where it fits, with a price and a compare-at price per market), and the checks every row of an
 * import passes before anything is written. Pure: the server hands in what the catalogue holds
 * (`CatalogueView`, `ExistingProduct`) and gets back every problem at once and what would change.
 */
import { designerKey } from './designers';
import { MARKET_CODES, type MarketCode } from './markets';
import { fill, message } from './messages';
import { sizeGuideFor } from './size-guides';

/** The columns, in the order the export writes them. */
export const IMPORT_COLUMNS = [
  'Handle',
  'Title',
  'Description',
  'Brand',
  'Category',
  'Tags',
  'Status',
  'Option1 Colour',
  'Option2 Size',
  'SKU',
  'Inventory',
  'Price NG',
  'Price ZA',
  'Compare-at NG',
  'Compare-at ZA',
  'Image Src',
  'Image Alt Text',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Shopify's own names for the same columns, so a Shopify export is read as it is. */
const ALIASES: Record<string, ImportColumn> = {
  'body (html)': 'Description',
  vendor: 'Brand',
  'product category': 'Category',
  'option1 value': 'Option1 Colour',
  'option2 value': 'Option2 Size',
  'variant sku': 'SKU',
  'variant inventory qty': 'Inventory',
};

/** Files larger than this many rows are refused whole (a 5,000-row season is a tenth of it). */
export const IMPORT_MAX_ROWS = 50_000;
/** A CSV upload, and a ZIP of pictures beside it. */
export const IMPORT_MAX_CSV_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ZIP_BYTES = 40 * 1024 * 1024;

export const IMPORT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Columns read and checked but not stored by this store yet (reported in the summary, never dropped silently). */
export const NOT_APPLIED_COLUMNS = ['Tags', 'Compare-at NG', 'Compare-at ZA'] as const satisfies readonly ImportColumn[];

export interface ImportProblem {
  /** The spreadsheet's row number: the header is row 1. */
  row: number;
  column: string;
  message: string;
}

/** The column a header names, or null for a column the import does not read. */
export function columnOf(header: string): ImportColumn | null {
  const key = header.replace(/^\uFEFF/, '').trim().toLowerCase();
  return IMPORT_COLUMNS.find((c) => c.toLowerCase() === key) ?? ALIASES[key] ?? null;
}

/** The header row's columns, by their place; a missing Handle column is a problem of row 1. */
export function readHeader(header: readonly string[]): { columns: (ImportColumn | null)[]; problems: ImportProblem[] } {
  const columns = header.map(columnOf);
  const problems: ImportProblem[] = [];
  for (const required of ['Handle', 'Title'] as const) {
    if (!columns.includes(required)) problems.push({ row: 1, column: required, message: fill('import-column-missing', required) });
  }
  return { columns, problems };
}

/** A colour or size as the catalogue knows it. */
export interface Named {
  id: number;
  name: string;
}

export interface CategoryView {
  id: number;
  /** "Shoes > Heels": the parent's name, then the sub-category's. */
  path: string;
  /** The sizes its size guide takes (by name), or [] when its pieces come in one size. */
  sizes: readonly string[];
  /** The guide's title, for the message naming it ("Shoes"). */
  guide: string | null;
}

/** What the catalogue holds that the rows are checked against. */
export interface CatalogueView {
  colours: readonly Named[];
  sizes: readonly Named[];
  /** Sub-categories only (a product belongs to one). */
  categories: readonly CategoryView[];
  /** Every SKU in the store and the handle of the product that has it. */
  skuHandles: ReadonlyMap<string, string>;
  /** The designers the store has (a Brand cell names one in any case, or a new one). */
  designers: readonly Named[];
}

export interface PlannedVariant {
  row: number;
  /** Null: none given; the variant is found by its colour and size, and keeps the SKU it has. */
  sku: string | null;
  colourId: number | null;
  sizeId: number | null;
  /** Undefined: the file has no Inventory column (stock stays, 0 for a new variant). */
  stock: number | undefined;
  /** Per market, in minor units: a number sets it, null takes it off sale there, absent (no column) leaves it. */
  prices: Partial<Record<MarketCode, number | null>>;
  compareAt: Partial<Record<MarketCode, number | null>>;
}

export interface PlannedImage {
  row: number;
  src: string;
  alt: string;
}

export interface PlannedProduct {
  handle: string;
  row: number;
  title: string;
  description: string | undefined;
  categoryId: number | undefined;
  status: ImportStatus | undefined;
  /** The Brand cell: a designer's name, null when empty (none), undefined without the column (left). */
  designer: string | null | undefined;
  variants: PlannedVariant[];
  images: PlannedImage[];
}

export type ImportRecord = Partial<Record<ImportColumn, string>>;

/** A record of cells by column, from a row of the file (cells past the header's are ignored). */
export function recordOf(columns: readonly (ImportColumn | null)[], cells: readonly string[]): ImportRecord {
  const out: ImportRecord = {};
  columns.forEach((c, i) => {
    if (c && out[c] === undefined) out[c] = (cells[i] ?? '').trim();
  });
  return out;
}

const HANDLE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const AMOUNT = /^\d{1,12}(?:[.,]\d{1,2})?$/;
const WHOLE = /^\d{1,9}$/;
const key = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** An amount as a spreadsheet writes it ("450000", "450000.00", "450 000", "450,000.50") in minor units, or null when it is not one. */
export function parseAmount(text: string): number | null {
  let t = text.replace(/[\s\u00a0\u202f]/g, '').replace(/^(?:₦|R|NGN|ZAR)/i, '');
  // "450,000.50": the comma groups thousands; "450,50": the comma is the decimal mark.
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$/.test(t)) t = t.replace(/,/g, '');
  if (!AMOUNT.test(t)) return null;
  const [whole, fraction = ''] = t.split(/[.,]/);
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The sizes a category's guide takes: its guide is the one its pieces' sizes follow; the guide stays the same with each size it takes. */
export function sizesOfGuide(usedInCategory: readonly string[], allSizes: readonly string[], categoryHasProducts: boolean): { sizes: string[]; guide: string | null } {
  if (usedInCategory.length === 0) {
    // An empty category takes any size a guide covers; one whose pieces have no size takes none.
    return categoryHasProducts ? { sizes: [], guide: null } : { sizes: allSizes.filter((s) => sizeGuideFor([s]) !== null), guide: null };
  }
  const guide = sizeGuideFor(usedInCategory);
  if (!guide) return { sizes: [...new Set(usedInCategory)], guide: null };
  return { sizes: allSizes.filter((s) => sizeGuideFor([...usedInCategory, s]) === guide), guide: guide.title };
}

/**
 * Checks every row and groups them into products (rows sharing a handle), without stopping at the
 * first problem: the whole file's problems come back at once, each with its row and column.
 * Image cells are only collected here; the server fetches them and adds their problems.
 */
export function checkRows(records: readonly { row: number; cells: ImportRecord }[], present: ReadonlySet<ImportColumn>, view: CatalogueView): { products: PlannedProduct[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const problem = (row: number, column: ImportColumn, text: string) => problems.push({ row, column, message: text });
  const colours = new Map(view.colours.map((c) => [key(c.name), c]));
  const sizes = new Map(view.sizes.map((s) => [key(s.name), s]));
  const categories = new Map(view.categories.map((c) => [key(c.path), c]));
  const products = new Map<string, PlannedProduct & { category: CategoryView | undefined; cellRows: Map<string, number> }>();
  // A colour's first spelling in the file; another spelling of the same colour is a problem.
  const spelling = new Map<string, { text: string; row: number }>();
  // Each SKU's first row in the file, and the handle it came with.
  const skuRows = new Map<string, { row: number; handle: string }>();

  for (const { row, cells } of records) {
    const cell = (c: ImportColumn) => cells[c] ?? '';
    const handle = cell('Handle').toLowerCase();
    if (!handle) {
      problem(row, 'Handle', fill('import-required', 'Handle'));
      continue;
    }
    if (!HANDLE.test(handle) || handle.length > 80) {
      problem(row, 'Handle', message('import-handle-shape'));
      continue;
    }
    let product = products.get(handle);
    if (!product) {
      const title = cell('Title');
      if (!title) problem(row, 'Title', fill('import-required', 'Title'));
      else if (title.length > 200) problem(row, 'Title', message('import-title-long'));
      const path = cell('Category');
      const category = path ? categories.get(key(path.replace(/\s*[>/]\s*/g, ' > '))) : undefined;
      if (!path) problem(row, 'Category', fill('import-required', 'Category'));
      else if (!category) problem(row, 'Category', fill('import-category-unknown', path));
      const status = cell('Status').toLowerCase();
      if (status && !(IMPORT_STATUSES as readonly string[]).includes(status)) problem(row, 'Status', fill('import-status-unknown', cell('Status')));
      const description = present.has('Description') ? cell('Description') : undefined;
      if (description && description.length > 10_000) problem(row, 'Description', message('import-description-long'));
      const designer = present.has('Brand') ? cell('Brand').replace(/\s+/g, ' ') || null : undefined;
      if (designer && designer.length > 100) problem(row, 'Brand', message('import-brand-long'));
      product = {
        handle,
        row,
        title,
        description,
        categoryId: category?.id,
        category,
        cellRows: new Map(),
        status: (IMPORT_STATUSES as readonly string[]).includes(status) ? (status as ImportStatus) : undefined,
        designer,
        variants: [],
        images: [],
      };
      products.set(handle, product);
    } else {
      const title = cell('Title');
      if (title && title !== product.title && product.title) problem(row, 'Title', fill('import-title-differs', handle, product.title));
    }

    const src = cell('Image Src');
    if (src) {
      if (src.length > 2000) problem(row, 'Image Src', message('import-image-src'));
      else product.images.push({ row, src, alt: cell('Image Alt Text') });
    }

    const variantCells = (['Option1 Colour', 'Option2 Size', 'SKU', 'Inventory', 'Price NG', 'Price ZA', 'Compare-at NG', 'Compare-at ZA'] as const).some((c) => cell(c) !== '');
    // A row with only a handle and a picture adds the picture (Shopify's image rows).
    if (!variantCells && (src || product.row !== row)) continue;

    // No SKU: the variant is the product's colour and size (the store's own variants may have none).
    const sku = cell('SKU') || null;
    if (sku === null) {
      // nothing to check
    } else if (sku.length > 64) problem(row, 'SKU', message('sku-too-long'));
    else {
      const first = skuRows.get(sku.toLowerCase());
      const owner = view.skuHandles.get(sku.toLowerCase());
      if (first) problem(row, 'SKU', fill('import-sku-twice', sku, first.row));
      else if (owner !== undefined && owner !== handle) problem(row, 'SKU', fill('import-sku-taken', sku, owner));
      if (!first) skuRows.set(sku.toLowerCase(), { row, handle });
    }

    let colourId: number | null = null;
    const colourText = cell('Option1 Colour');
    if (colourText) {
      const k = key(colourText);
      const seen = spelling.get(k);
      if (seen && seen.text !== colourText) problem(row, 'Option1 Colour', fill('import-colour-two-ways', colourText, seen.text, seen.row));
      else if (!seen) spelling.set(k, { text: colourText, row });
      const colour = colours.get(k);
      if (!colour) problem(row, 'Option1 Colour', fill('import-colour-unknown', colourText));
      else colourId = colour.id;
    }

    let sizeId: number | null = null;
    const sizeText = cell('Option2 Size');
    if (sizeText) {
      const size = sizes.get(key(sizeText));
      const category = product.category;
      if (!size) problem(row, 'Option2 Size', fill('import-size-unknown', sizeText));
      else if (category && !category.sizes.includes(size.name)) {
        problem(row, 'Option2 Size', category.sizes.length === 0 ? fill('import-size-none', category.path) : fill('import-size-not-in-guide', sizeText, category.guide ?? category.path));
      } else sizeId = size.id;
    }

    let stock: number | undefined;
    if (present.has('Inventory')) {
      const text = cell('Inventory');
      if (!text) problem(row, 'Inventory', fill('import-required', 'Inventory'));
      else if (!WHOLE.test(text)) problem(row, 'Inventory', fill('import-inventory-whole', text));
      else stock = Number(text);
    }

    const prices: PlannedVariant['prices'] = {};
    const compareAt: PlannedVariant['compareAt'] = {};
    for (const market of MARKET_CODES) {
      const priceColumn = `Price ${market}` as ImportColumn;
      const compareColumn = `Compare-at ${market}` as ImportColumn;
      if (present.has(priceColumn)) {
        const text = cell(priceColumn);
        const minor = text ? parseAmount(text) : null;
        if (text && minor === null) problem(row, priceColumn, fill('import-price-number', priceColumn, text));
        else prices[market] = minor;
      }
      if (present.has(compareColumn)) {
        const text = cell(compareColumn);
        const minor = text ? parseAmount(text) : null;
        if (text && minor === null) problem(row, compareColumn, fill('import-price-number', compareColumn, text));
        else if (minor !== null && (prices[market] ?? null) !== null && minor <= prices[market]!) problem(row, compareColumn, fill('import-compare-above', compareColumn, priceColumn));
        else compareAt[market] = minor;
      }
    }
    if (MARKET_CODES.every((m) => cell(`Price ${m}` as ImportColumn) === '') && MARKET_CODES.some((m) => present.has(`Price ${m}` as ImportColumn))) {
      problem(row, 'Price NG', message('import-price-required'));
    }

    // The same colour and size twice in one product (only when both are known: an unknown one is its own problem).
    if ((!colourText || colourId !== null) && (!sizeText || sizeId !== null)) {
      const cellKey = `${colourId}:${sizeId}`;
      const same = product.cellRows.get(cellKey);
      if (same !== undefined) problem(row, 'Option1 Colour', fill('import-variant-twice', same));
      else product.cellRows.set(cellKey, row);
    }
    product.variants.push({ row, sku, colourId, sizeId, stock, prices, compareAt });
  }

  for (const p of products.values()) {
    if (p.variants.length === 0 && p.title) problems.push({ row: p.row, column: 'SKU', message: message('import-no-variants') });
  }
  problems.sort((a, b) => a.row - b.row || IMPORT_COLUMNS.indexOf(a.column as ImportColumn) - IMPORT_COLUMNS.indexOf(b.column as ImportColumn));
  return { products: [...products.values()].map(({ category: _category, cellRows: _cells, ...p }) => p), problems };
}

/** A product as the catalogue holds it, for the summary of what an import changes. */
export interface ExistingProduct {
  id: number;
  handle: string;
  title: string;
  description: string;
  categoryId: number;
  active: boolean;
  /** Its designer's name (null: none). */
  designer: string | null;
  variants: { id: number; sku: string | null; colourId: number | null; sizeId: number | null; stock: number; prices: Partial<Record<MarketCode, number>> }[];
  /** The media hashes of its pictures. */
  images: readonly string[];
}

export interface PriceChange {
  handle: string;
  sku: string | null;
  market: MarketCode;
  before: number | null;
  after: number | null;
}

export interface ImportSummary {
  products: { created: number; updated: number; unchanged: number; archived: number };
  variants: { created: number; updated: number; unchanged: number };
  stockSet: number;
  imagesAdded: number;
  priceChanges: PriceChange[];
  /** Designers the file names that the store does not have yet: applying adds them. */
  designersCreated: string[];
  /** Columns the file fills that this store does not keep yet. */
  notApplied: string[];
}

/** How each planned variant meets the catalogue: the existing variant it updates, or none (created). */
export function matchVariant(existing: ExistingProduct | undefined, v: PlannedVariant): ExistingProduct['variants'][number] | undefined {
  if (!existing) return undefined;
  const sku = v.sku?.toLowerCase();
  return (sku ? existing.variants.find((e) => e.sku !== null && e.sku.toLowerCase() === sku) : undefined) ?? existing.variants.find((e) => e.colourId === v.colourId && e.sizeId === v.sizeId);
}

/** What applying would change, product by product; `imageHashes` maps each image cell to its picture once fetched. */
export function summarise(
  planned: readonly PlannedProduct[],
  existing: ReadonlyMap<string, ExistingProduct>,
  imageHashes: ReadonlyMap<string, string>,
  filled: ReadonlySet<string>,
  designers: readonly Named[] = [],
): ImportSummary {
  const s: ImportSummary = {
    products: { created: 0, updated: 0, unchanged: 0, archived: 0 },
    variants: { created: 0, updated: 0, unchanged: 0 },
    stockSet: 0,
    imagesAdded: 0,
    priceChanges: [],
    designersCreated: [],
    notApplied: NOT_APPLIED_COLUMNS.filter((c) => filled.has(c)),
  };
  const knownDesigners = new Set(designers.map((d) => designerKey(d.name)));
  for (const p of planned) {
    if (p.designer && !knownDesigners.has(designerKey(p.designer))) {
      knownDesigners.add(designerKey(p.designer));
      s.designersCreated.push(p.designer);
    }
    const e = existing.get(p.handle);
    const plan = productChanges(p, e, imageHashes);
    if (!e) s.products.created++;
    else if (plan.fields || plan.variantsChanged || plan.newImages.length) s.products.updated++;
    else s.products.unchanged++;
    if (p.status === 'archived' && (!e || e.active)) s.products.archived++;
    s.imagesAdded += plan.newImages.length;
    for (const v of plan.variants) {
      if (!v.existing) s.variants.created++;
      else if (v.changed) s.variants.updated++;
      else s.variants.unchanged++;
      if (v.stockChanges) s.stockSet++;
      for (const market of MARKET_CODES) {
        const after = v.planned.prices[market];
        const before = v.existing?.prices[market] ?? null;
        if (after !== undefined && after !== before && (v.existing || after !== null)) s.priceChanges.push({ handle: p.handle, sku: v.planned.sku, market, before, after });
      }
    }
  }
  return s;
}

/** The changes a planned product makes to the catalogue, field by field and variant by variant. */
export function productChanges(p: PlannedProduct, e: ExistingProduct | undefined, imageHashes: ReadonlyMap<string, string>) {
  const active = p.status === undefined ? (e?.active ?? true) : p.status === 'active';
  const designerChanges = p.designer !== undefined && designerKey(p.designer ?? '') !== designerKey(e?.designer ?? '');
  const fields = !e || e.title !== p.title || (p.description !== undefined && e.description !== p.description) || (p.categoryId !== undefined && e.categoryId !== p.categoryId) || e.active !== active || designerChanges;
  const variants = p.variants.map((v) => {
    const existing = matchVariant(e, v);
    const stockChanges = v.stock !== undefined && v.stock !== (existing?.stock ?? 0);
    const pricesChange = MARKET_CODES.some((m) => v.prices[m] !== undefined && v.prices[m] !== (existing?.prices[m] ?? null));
    const skuChanges = !existing || (v.sku !== null && existing.sku !== v.sku);
    return { planned: v, existing, stockChanges, pricesChange, changed: stockChanges || pricesChange || skuChanges };
  });
  const known = new Set(e?.images ?? []);
  const newImages: { hash: string; alt: string }[] = [];
  for (const image of p.images) {
    const hash = imageHashes.get(image.src);
    if (hash && !known.has(hash)) {
      known.add(hash);
      newImages.push({ hash, alt: image.alt });
    }
  }
  return { active, fields, variants, variantsChanged: variants.some((v) => v.changed), newImages };
}

/** True when the summary changes nothing in the catalogue. */
export function changesNothing(s: ImportSummary): boolean {
  return s.products.created + s.products.updated + s.variants.created + s.variants.updated + s.imagesAdded === 0;
}
