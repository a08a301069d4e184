import { seedDemoTaxSettings } from '@/lib/server/books/settings';
import { sql } from 'drizzle-orm';
import { toMinor } from '@/lib/domain/money';
import { createMediaService } from '@/lib/server/infra/media';
import { hashPassword } from '@/lib/server/accounts/passwords';
import { MEDIA_REFERENCES, type Services } from '@/lib/server/services';
import type { Db, Tx } from '../infra/db/client';
import { recordStockMoves } from '@/lib/server/catalogue/stock';
import { createSearch } from '@/lib/server/catalogue/search';
import { addresses, users } from '../accounts/tables';
import { designerSlug } from '@/lib/domain/designers';
import { categories, colors, designers, productImages, products, sizes, variantPrices, variants } from '../catalogue/tables';
import { bannerArtSvg, productArtSvg, type ArtKind } from './seed-art';

/** The documented demo shopper (README). */
export const DEMO_USER = {
  email: 'demo@maisonluxe.ng',
  password: 'LuxeDemo2026!',
  firstName: 'Adaeze',
  lastName: 'Okafor',
  phoneNumber: '+2348012345678',
  country: 'nigeria' as const,
};

/** The documented demo back-office owner (README; demo mode only, like all seed data). Signs in at /login with an e-mailed code. */
export const DEMO_OWNER = {
  email: 'owner@maisonluxe.ng',
  password: 'LuxeOwner2026!',
  firstName: 'Folake',
  lastName: 'Adeyemi',
  phoneNumber: '+2348098765432',
  country: 'nigeria' as const,
};

/** Small deterministic PRNG so every seed builds the same store. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    sample: <T>(list: readonly T[], n: number): T[] => {
      const copy = [...list];
      const out: T[] = [];
      while (out.length < n && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]!);
      return out;
    },
  };
}

const COLORS = [
  ['Black', '#141414'],
  ['Ivory', '#efe6d6'],
  ['Tan', '#b07a4a'],
  ['Burgundy', '#7a1f2b'],
  ['Emerald', '#1f6b4f'],
  ['Navy', '#1d2b4f'],
  ['Blush', '#e3b3ab'],
  ['Gold', '#c9a14a'],
  ['Cognac', '#8a4b22'],
  ['Stone', '#9a958c'],
  ['Olive', '#5b5e33'],
  ['Cobalt', '#2a4fb5'],
] as const;

const SIZE_SETS = {
  clothing: ['XS', 'S', 'M', 'L', 'XL'],
  shoes: ['EU 37', 'EU 38', 'EU 39', 'EU 40', 'EU 41', 'EU 42', 'EU 43', 'EU 44'],
  belts: ['80 cm', '90 cm', '100 cm'],
  none: [],
} as const;
const ALL_SIZES = [...SIZE_SETS.clothing, ...SIZE_SETS.shoes, ...SIZE_SETS.belts];

interface SubSpec {
  name: string;
  slug: string;
  kind: ArtKind;
  noun: string;
  sizes: keyof typeof SIZE_SETS;
  price: [number, number];
  materials: string[];
  /** The noun names a pair or a plural (Sneakers, Trousers): the description's verbs agree with it. */
  plural?: true;
  /** Other pieces of the sub-category, with their art (men's bags: holdalls and messenger bags beside weekenders). */
  more?: { noun: string; kind: ArtKind }[];
  /** Name stems of its own (men's pieces), instead of the house's. */
  stems?: readonly string[];
  /** A banner of its own (a sub-category with a page of its own: /Bags-men). */
  banner?: { kinds: ArtKind[]; palette: [string, string] };
}
interface ParentSpec {
  name: string;
  slug: string;
  description: string;
  palette: [string, string];
  subs: SubSpec[];
}

const CATALOGUE: ParentSpec[] = [
  {
    name: 'Bags',
    slug: 'bags',
    description: 'Handcrafted leather for every arrival',
    palette: ['#f3e7da', '#d9c2a7'],
    subs: [
      { name: 'Totes', slug: 'totes', kind: 'tote', noun: 'Tote', sizes: 'none', price: [450_000, 2_800_000], materials: ['Grained Leather', 'Quilted Lambskin', 'Canvas and Leather', 'Smooth Calfskin'] },
      { name: 'Crossbody Bags', slug: 'crossbody-bags', kind: 'crossbody', noun: 'Crossbody Bag', sizes: 'none', price: [320_000, 1_900_000], materials: ['Pebbled Leather', 'Patent Leather', 'Suede', 'Croc-Embossed Leather'] },
      { name: 'Clutches', slug: 'clutches', kind: 'clutch', noun: 'Clutch', sizes: 'none', price: [210_000, 1_400_000], materials: ['Satin', 'Beaded Silk', 'Metallic Leather', 'Velvet'] },
      { name: 'Backpacks', slug: 'backpacks', kind: 'backpack', noun: 'Backpack', sizes: 'none', price: [380_000, 1_600_000], materials: ['Nylon and Leather', 'Saffiano Leather', 'Waxed Canvas'] },
      {
        name: 'Bags Men',
        slug: 'bags-men',
        kind: 'duffel',
        noun: 'Weekender',
        more: [
          { noun: 'Holdall', kind: 'duffel' },
          { noun: 'Messenger Bag', kind: 'crossbody' },
          { noun: 'Travel Backpack', kind: 'backpack' },
        ],
        stems: ['Tunde', 'Sipho', 'Kofi', 'Bongani', 'Emeka', 'Thabo', 'Chidi', 'Lwazi', 'Femi', 'Kagiso', 'Obinna', 'Mandla'],
        banner: { kinds: ['duffel', 'backpack', 'wallet'], palette: ['#e4e1da', '#a9a59b'] },
        sizes: 'none',
        price: [520_000, 3_200_000],
        materials: ['Full-Grain Leather', 'Textured Calfskin', 'Coated Canvas', 'Waxed Cotton'],
      },
    ],
  },
  {
    name: 'Clothing',
    slug: 'clothing',
    description: 'Tailoring that moves with you',
    palette: ['#e9ecef', '#c7ccd3'],
    subs: [
      { name: 'Dresses', slug: 'dresses', kind: 'dress', noun: 'Dress', sizes: 'clothing', price: [180_000, 1_500_000], materials: ['Silk Midi', 'Pleated Maxi', 'Linen Wrap', 'Sequinned Evening'] },
      { name: 'Shirts', slug: 'shirts', kind: 'shirt', noun: 'Shirt', sizes: 'clothing', price: [85_000, 420_000], materials: ['Poplin', 'Silk Twill', 'Oxford Cotton', 'Linen'] },
      { name: 'Jackets', slug: 'jackets', kind: 'jacket', noun: 'Jacket', sizes: 'clothing', price: [260_000, 2_100_000], materials: ['Double-Breasted Wool', 'Leather Biker', 'Tweed', 'Cropped Bouclé'] },
      { name: 'Trousers', slug: 'trousers', kind: 'trousers', noun: 'Trousers', plural: true, sizes: 'clothing', price: [95_000, 520_000], materials: ['Wide-Leg Crepe', 'Tailored Wool', 'Pleated Linen'] },
    ],
  },
  {
    name: 'Shoes',
    slug: 'shoes',
    description: 'Made to be noticed, built to last',
    palette: ['#efe3e0', '#d4b9b3'],
    subs: [
      { name: 'Heels', slug: 'heels', kind: 'heel', noun: 'Pumps', plural: true, sizes: 'shoes', price: [210_000, 1_200_000], materials: ['Patent Leather', 'Suede', 'Satin Slingback', 'Pointed Leather'] },
      { name: 'Sneakers', slug: 'sneakers', kind: 'sneaker', noun: 'Sneakers', plural: true, sizes: 'shoes', price: [150_000, 780_000], materials: ['Low-Top Leather', 'Suede Runner', 'High-Top Calfskin'] },
      { name: 'Loafers', slug: 'loafers', kind: 'loafer', noun: 'Loafers', plural: true, sizes: 'shoes', price: [190_000, 950_000], materials: ['Horsebit Leather', 'Penny Suede', 'Chunky Lug-Sole'] },
      { name: 'Sandals', slug: 'sandals', kind: 'sandal', noun: 'Sandals', plural: true, sizes: 'shoes', price: [120_000, 640_000], materials: ['Strappy Leather', 'Woven Raffia', 'Chain-Trim'] },
    ],
  },
  {
    name: 'Accessories',
    slug: 'accessories',
    description: 'The finishing touch, perfected',
    palette: ['#e6ece4', '#bccab6'],
    subs: [
      { name: 'Belts', slug: 'belts', kind: 'belt', noun: 'Belt', sizes: 'belts', price: [65_000, 380_000], materials: ['Reversible Leather', 'Logo-Buckle', 'Croc-Embossed'] },
      { name: 'Scarves', slug: 'scarves', kind: 'scarf', noun: 'Scarf', sizes: 'none', price: [55_000, 310_000], materials: ['Silk Twill', 'Cashmere', 'Printed Modal'] },
      { name: 'Wallets', slug: 'wallets', kind: 'wallet', noun: 'Wallet', sizes: 'none', price: [70_000, 420_000], materials: ['Zip-Around Leather', 'Bifold Calfskin', 'Card Case'] },
      { name: 'Sunglasses', slug: 'sunglasses', kind: 'sunglasses', noun: 'Sunglasses', plural: true, sizes: 'none', price: [90_000, 480_000], materials: ['Cat-Eye Acetate', 'Aviator Metal', 'Oversized Square'] },
    ],
  },
];

const NAMES = [
  'Amara', 'Zuri', 'Ife', 'Thandi', 'Kemi', 'Lerato', 'Adaeze', 'Naledi', 'Ayo', 'Sade', 'Nia', 'Temi', 'Kaya', 'Zola',
  'Ada', 'Lindiwe', 'Funmi', 'Nandi', 'Chioma', 'Imani', 'Palesa', 'Bisi', 'Ama', 'Zanele',
];

/**
 * A description written for one product, composed from parts (what it is made of, how it is made,
 * how it wears, how to care for it) so that no two read alike; verbs agree with a plural noun.
 */
/** Bags' outer sizes in cm (width × height × depth), two per shape, taken in turn: no draw from the seed's random sequence. */
const BAG_DIMENSIONS: Partial<Record<ArtKind, [string, string]>> = {
  tote: ['38 × 30 × 14', '44 × 33 × 16'],
  crossbody: ['24 × 16 × 7', '21 × 14 × 6'],
  clutch: ['28 × 14 × 4', '24 × 12 × 3.5'],
  backpack: ['30 × 40 × 14', '28 × 36 × 12'],
  duffel: ['50 × 28 × 26', '55 × 30 × 27'],
};

const FAMILY_OF: Record<string, 'bags' | 'clothing' | 'shoes' | 'accessories'> = { Bags: 'bags', Clothing: 'clothing', Shoes: 'shoes', Accessories: 'accessories' };
const OPENINGS = [
  (n: string, m: string, v: Verbs) => `The ${n} ${v.is} cut from ${m.toLowerCase()} chosen for its hand and the way it takes colour.`,
  (n: string, m: string, v: Verbs) => `In ${m.toLowerCase()}, the ${n} ${v.keeps} a clean line from every angle.`,
  (n: string, m: string, v: Verbs) => `The ${n} ${v.brings} ${m.toLowerCase()} into a shape that is quietly its own.`,
  (n: string, m: string, v: Verbs) => `Made in ${m.toLowerCase()}, the ${n} ${v.is} understated at first glance and rewarding up close.`,
  (n: string, m: string, v: Verbs) => `The ${n} ${v.pairs} ${m.toLowerCase()} with proportions drawn for everyday wear.`,
];
const MAKING = [
  'Each piece is finished by hand in our Lagos atelier, in runs of a few dozen.',
  'The edges are painted and burnished by hand, a layer at a time.',
  'It is made by a family workshop we have worked with for a decade, and signed inside by its maker.',
  'Seams are stitched at eight stitches to the inch, the way heirloom pieces are made.',
  'The hardware is solid brass, plated by hand and polished before it is fitted.',
  'It is cut and assembled in Cape Town by a team of twelve artisans.',
  'Every panel is matched by eye, so the grain runs the same way across the whole piece.',
];
type Line = (v: Verbs) => string;
const FIT: Record<'bags' | 'clothing' | 'shoes' | 'accessories', Line[]> = {
  bags: [
    (v) => `${v.It} ${v.holds} a phone, a wallet, keys and a small notebook without losing ${v.its} shape.`,
    () => 'The strap adjusts, so it sits at the hip or across the body.',
    () => 'Inside, a zipped pocket keeps the small things apart from the rest.',
  ],
  clothing: [
    (v) => `${v.It} ${v.fits} true to size; take your usual size.`,
    () => 'The cut is relaxed: size down for a closer fit.',
    (v) => `${v.It} ${v.is} cut close to the body; if you are between sizes, take the larger.`,
  ],
  shoes: [
    (v) => `${v.It} ${v.fits} true to size; if you are between sizes, take the larger.`,
    (v) => `A cushioned leather footbed makes ${v.it} easy to wear from the first day.`,
    (v) => `${v.It} ${v.runs} slightly small: we suggest half a size up.`,
  ],
  accessories: [
    (v) => `${v.It} ${v.is} made to be worn every day and to travel well.`,
    (v) => `${v.It} ${v.comes} in a dust bag and a box, ready to give.`,
    (v) => `${v.It} ${v.is} light enough to forget you are wearing ${v.it}.`,
  ],
};
const CARE: Record<'bags' | 'clothing' | 'shoes' | 'accessories', Line[]> = {
  bags: [(v) => `Keep ${v.it} stuffed and in ${v.its} dust bag when you are not carrying ${v.it}.`, (v) => `Wipe ${v.it} with a soft dry cloth, away from direct sun and rain.`],
  clothing: [() => 'Dry clean only.', () => 'Hand wash cold and dry flat in the shade.', () => 'Steam rather than iron, and hang on a shaped hanger.'],
  shoes: [() => 'Use shoe trees between wears and a leather balm each season.', () => 'Brush suede with a soft brush; keep leather away from standing water.'],
  accessories: [(v) => `Store ${v.it} flat, away from light.`, (v) => `Wipe ${v.it} clean with a soft cloth.`],
};
interface Verbs {
  It: string;
  it: string;
  its: string;
  is: string;
  keeps: string;
  brings: string;
  pairs: string;
  holds: string;
  fits: string;
  runs: string;
  comes: string;
}
const SINGULAR: Verbs = { It: 'It', it: 'it', its: 'its', is: 'is', keeps: 'keeps', brings: 'brings', pairs: 'pairs', holds: 'holds', fits: 'fits', runs: 'runs', comes: 'comes' };
const PLURAL: Verbs = { It: 'They', it: 'them', its: 'their', is: 'are', keeps: 'keep', brings: 'bring', pairs: 'pair', holds: 'hold', fits: 'fit', runs: 'run', comes: 'come' };

/** The description of the `index`-th product (from 1): each part taken at a different step, so the combinations vary. */
export function seedDescription(name: string, material: string, parent: string, plural: boolean, index: number): string {
  const family = FAMILY_OF[parent] ?? 'accessories';
  const verbs = plural ? PLURAL : SINGULAR;
  return [
    OPENINGS[index % OPENINGS.length]!(name, material, verbs),
    MAKING[(index * 3) % MAKING.length]!,
    FIT[family][index % FIT[family].length]!(verbs),
    CARE[family][(index * 5) % CARE[family].length]!(verbs),
  ].join(' ');
}

const PRODUCTS_PER_SUB = 10;

/** Seeds the demo store when the database has no products. Returns whether it seeded. */
export async function seedIfEmpty(services: Services): Promise<boolean> {
  const [row] = await services.db.select({ n: sql<number>`count(*)::int` }).from(products);
  if ((row?.n ?? 0) > 0) return false;
  return services.db.transaction(async (tx) => {
    // Several app servers may boot at once on one empty PostgreSQL: one seeds, the others wait and see it done.
    await tx.execute(sql`select pg_advisory_xact_lock(20261122)`);
    const [again] = await tx.select({ n: sql<number>`count(*)::int` }).from(products);
    if ((again?.n ?? 0) > 0) return false;
    await seed({ ...services, db: tx, media: createMediaService({ db: tx, references: MEDIA_REFERENCES }) });
    return true;
  });
}

/** Deletes every row of every table (used by `npm run db:seed -- --reset`). */
export async function resetDatabase(services: Services): Promise<void> {
  const tables = await services.db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '%drizzle%'`,
  );
  const names = (tables as unknown as { rows: { tablename: string }[] }).rows.map((t) => `"${t.tablename}"`);
  if (names.length) await services.db.execute(sql.raw(`truncate ${names.join(', ')} restart identity cascade`));
}

/** Every this many demo products, one is sold in Nigeria only (it has no South African price). */
export const NOT_IN_SOUTH_AFRICA_EVERY = 13;

/**
 * The demo store's rand price for a naira price: the house's fixed price ladder (R50 steps, R500 at
 * least), set once in the seed like a buyer would, not a live conversion.
 */
export function seedRandPrice(nairaMajor: number): number {
  return Math.max(500, Math.round(nairaMajor / 80 / 50) * 50);
}

/** Every this many products, colours after the first carry a special finish and cost more. */
export const PREMIUM_COLOURS_EVERY = 6;

/** A variant's naira price: the product's, or 15% more (in ₦5,000 steps) for a premium-finish colour. */
export function seedVariantNaira(productNaira: number, productIndex: number, colourIndex: number): number {
  if (productIndex % PREMIUM_COLOURS_EVERY !== 0 || colourIndex === 0) return productNaira;
  return Math.round((productNaira * 1.15) / 5000) * 5000;
}

/** The demo store's designers: invented houses of Lagos, Johannesburg, Cape Town and Accra. */
export const SEED_DESIGNERS: readonly { name: string; about: string }[] = [
  { name: 'Adébáyọ̀ Atelier', about: 'Hand-finished leather from a Lagos Island workshop: structured bags, brass hardware, aso-oke linings.' },
  { name: 'Ọ̀ṣun & Ivory', about: 'Lagos eveningwear in silk and adire, cut close and finished by hand.' },
  { name: 'Kóláwọlé Maison', about: 'Tailoring from Yaba: sharp shoulders, soft linen, buttons carved from horn.' },
  { name: 'Atelier Nomvula', about: 'Johannesburg knitwear and shoes, made in small runs in Maboneng.' },
  { name: 'Sibanye Studio', about: 'Braamfontein ready-to-wear in bold block colours, cut for the city.' },
  { name: 'Dlamini Ndlovu', about: 'Heels and sandals lasted by hand in Johannesburg, in leather tanned in the Karoo.' },
  { name: 'Bo-Kaap Loom', about: 'Cape Town weavers: scarves, wraps and totes in colours taken from the Bo-Kaap.' },
  { name: 'Kloof & Kin', about: 'Quiet Cape Town linen and cotton for warm days and cool evenings.' },
  { name: 'Lourens Tafelberg', about: 'Cape Town bags in vegetable-tanned leather, stitched with waxed thread.' },
  { name: 'Nana Asantewaa', about: 'Accra couture with kente woven in Bonwire and cut in Osu.' },
  { name: 'Kwabena Boateng', about: 'Accra menswear: batakari smocks, loafers and belts in soft calf.' },
  { name: 'Labadi Salon', about: 'Beach-to-dinner dresses and slides from an Accra studio by the sea.' },
];

type SeedDeps = Pick<Services, 'media' | 'log' | 'config' | 'clock'> & { db: Db | Tx };

export async function seed(services: SeedDeps): Promise<void> {
  const { db, media, log, clock } = services;
  const started = Date.now();
  const rand = prng(20261122);
  const svg = (s: string) => new TextEncoder().encode(s);

  const colorRows = await db
    .insert(colors)
    .values(COLORS.map(([name, hex]) => ({ name, hex })))
    .returning();
  const colorByName = new Map(colorRows.map((c) => [c.name, c]));
  const sizeRows = await db
    .insert(sizes)
    .values(ALL_SIZES.map((name, position) => ({ name, position })))
    .returning();
  const sizeByName = new Map(sizeRows.map((s) => [s.name, s]));

  const designerRows = await db
    .insert(designers)
    .values(SEED_DESIGNERS.map((d) => ({ ...d, slug: designerSlug(d.name) })))
    .returning({ id: designers.id });

  const now = clock().getTime();
  let productIndex = 0;
  const usedNames = new Set<string>();
  for (const [pi, parentSpec] of CATALOGUE.entries()) {
    const bannerKinds = parentSpec.subs.slice(0, 3).map((s) => s.kind);
    const bannerHash = await media.store(svg(bannerArtSvg({ kinds: bannerKinds, palette: parentSpec.palette, seed: pi + 1 })), 'image/svg+xml', {
      width: 1600,
      height: 700,
    });
    const [parentRow] = await db
      .insert(categories)
      .values({ name: parentSpec.name, slug: parentSpec.slug, description: parentSpec.description, imageHash: bannerHash, position: pi })
      .returning();
    for (const [si, sub] of parentSpec.subs.entries()) {
      const subBanner = sub.banner
        ? await media.store(svg(bannerArtSvg({ kinds: sub.banner.kinds, palette: sub.banner.palette, seed: 100 + si })), 'image/svg+xml', { width: 1600, height: 700 })
        : null;
      const [subRow] = await db
        .insert(categories)
        .values({ name: sub.name, slug: sub.slug, parentId: parentRow!.id, position: si, imageHash: subBanner })
        .returning();
      for (let k = 0; k < PRODUCTS_PER_SUB; k++) {
        productIndex++;
        const material = sub.materials[k % sub.materials.length]!;
        const pieces = [{ noun: sub.noun, kind: sub.kind }, ...(sub.more ?? [])];
        const piece = pieces[k % pieces.length]!;
        const stems = sub.stems ?? NAMES;
        // Every name is the store's only one: the next stem when this one is taken.
        let name = '';
        for (let step = 0; !name || usedNames.has(name); step++) name = `${stems[(productIndex * 7 + k + step) % stems.length]!} ${material} ${piece.noun}`;
        usedNames.add(name);
        const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, '')}-${productIndex}`;
        const [lo, hi] = sub.price;
        const priceMajor = Math.round((lo + rand.next() * (hi - lo)) / 5000) * 5000;
        const productColors = rand.sample(COLORS, rand.int(1, 3));
        const daysAgo = rand.int(0, 240);
        const [productRow] = await db
          .insert(products)
          .values({
            name,
            slug,
            description: seedDescription(name, material, parentSpec.name, Boolean(sub.plural), productIndex),
            categoryId: subRow!.id,
            // Spread over the designers in turn (no draw from the seed's random sequence, so the rest of the store stays as it was).
            designerId: designerRows[(productIndex * 5) % designerRows.length]!.id,
            dimensionsCm: parentSpec.name === 'Bags' ? (BAG_DIMENSIONS[piece.kind]?.[k % 2] ?? null) : null,
            // a long tail: a few products sell far more than the rest
            salesCount: Math.floor(rand.next() ** 3 * 900),
            createdAt: new Date(now - daysAgo * 86_400_000 - rand.int(0, 86_399) * 1000),
          })
          .returning({ id: products.id });
        const pid = productRow!.id;
        // Each colour has its own pictures, drawn in that colour (the gallery follows the chosen colour):
        // a front and an alternate view, and for a one-colour piece a detail and a styled view too.
        const views = productColors.length === 1 ? rand.int(2, 4) : 2;
        const imageValues = [];
        for (const [ci, colour] of productColors.entries()) {
          for (let view = 0; view < views; view++) {
            const hash = await media.store(
              svg(productArtSvg({ kind: piece.kind, colorHex: colour[1], view: view as 0 | 1 | 2 | 3, seed: productIndex * 10 + ci * 4 + view })),
              'image/svg+xml',
              { width: 800, height: 1000 },
            );
            const viewName = ['front view', 'alternate view', 'detail', 'styled'][view];
            imageValues.push({
              productId: pid,
              position: ci * views + view,
              mediaHash: hash,
              alt: `${name} in ${colour[0].toLowerCase()}, ${viewName}`,
              colorId: colorByName.get(colour[0])!.id,
            });
          }
        }
        await db.insert(productImages).values(imageValues);
        const sizeNames = SIZE_SETS[sub.sizes] as readonly string[];
        const variantValues = [];
        const variantNaira: number[] = [];
        for (const [ci, [cname]] of productColors.entries()) {
          const sizeList = sizeNames.length ? sizeNames : [null];
          for (const sname of sizeList) {
            variantValues.push({
              productId: pid,
              colorId: colorByName.get(cname)!.id,
              sizeId: sname ? sizeByName.get(sname)!.id : null,
              // most variants in stock, some sold out
              stock: rand.next() < 0.12 ? 0 : rand.int(1, 14),
            });
            variantNaira.push(seedVariantNaira(priceMajor, productIndex, ci));
          }
        }
        const inserted = await db.insert(variants).values(variantValues).returning({ id: variants.id, stock: variants.stock });
        // Prices are set per variant and market, never converted at a rate (docs/decisions/0004).
        // A few pieces are not sold in South Africa.
        const soldInSouthAfrica = productIndex % NOT_IN_SOUTH_AFRICA_EVERY !== 0;
        await db.insert(variantPrices).values(
          inserted.flatMap((v, i) => [
            { variantId: v.id, market: 'NG', priceMinor: toMinor(variantNaira[i]!) },
            ...(soldInSouthAfrica ? [{ variantId: v.id, market: 'ZA', priceMinor: toMinor(seedRandPrice(variantNaira[i]!)) }] : []),
          ]),
        );
        // Back office: the ledger opens with each variant's stock, so its sum is the stock on hand.
        await recordStockMoves(db, inserted.map((v) => ({ variantId: v.id, delta: v.stock, kind: 'opening' as const, reason: 'Opening balance' })));
      }
    }
  }

  // Search: every product's document and the words search knows.
  await createSearch({ db: db as Db }).refresh(null, db);

  const [demo] = await db
    .insert(users)
    .values({
      email: DEMO_USER.email,
      passwordHash: await hashPassword(DEMO_USER.password),
      firstName: DEMO_USER.firstName,
      lastName: DEMO_USER.lastName,
      phoneNumber: DEMO_USER.phoneNumber,
      country: DEMO_USER.country,
      verifiedAt: new Date(now),
    })
    .returning({ id: users.id });
  await db.insert(users).values({
    email: DEMO_OWNER.email,
    passwordHash: await hashPassword(DEMO_OWNER.password),
    firstName: DEMO_OWNER.firstName,
    lastName: DEMO_OWNER.lastName,
    phoneNumber: DEMO_OWNER.phoneNumber,
    country: DEMO_OWNER.country,
    verifiedAt: new Date(now),
    role: 'owner',
  });
  await db.insert(addresses).values({
    userId: demo!.id,
    name: `${DEMO_USER.firstName} ${DEMO_USER.lastName}`,
    country: 'nigeria',
    state: 'Lagos',
    city: 'Ikoyi',
    address: '14 Bourdillon Road',
    zipCode: '106104',
    active: true,
  });
  // Registered for VAT in both markets, with numbers that say they are not real.
  await seedDemoTaxSettings(db);
  log.info('seeded demo store', { products: productIndex, ms: Date.now() - started });
}
