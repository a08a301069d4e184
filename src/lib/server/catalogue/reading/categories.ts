import { and, asc, eq, sql } from 'drizzle-orm';
import type { CategoryDto, NamedRef, ParentCategoryDto } from '@/lib/domain/catalogue';
import { NotFound } from '@/lib/domain/errors';
import { imageUrl } from '@/lib/domain/images';
import type { MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import type { Db } from '@/lib/server/infra/db/client';
import { categories, productFromPrices, products } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { remember, type ReadMemo } from '@/lib/server/infra/read-memo';

const BANNER_WIDTH = 1280;

function categoryDto(row: typeof categories.$inferSelect): CategoryDto {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    image: row.imageHash ? imageUrl(row.imageHash, BANNER_WIDTH) : null,
    parentId: row.parentId,
  };
}

/** The categories as the shop shows them: the menu on every page, a category's page and its sub-categories. */
export function createCategoryReading({ db, memo }: { db: Db; memo?: ReadMemo | undefined }) {
  /**
   * The parent categories with their sub-categories. With a market, only what has something for
   * sale there (an active product with a price in that market, in the category or one of its
   * sub-categories): an empty category made by staff stays out of the shoppers' menu and banner.
   */
  async function loadParentCategories(market?: MarketCode): Promise<ParentCategoryDto[]> {
    const [rows, selling] = await Promise.all([
      db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)),
      market
        ? db
            .selectDistinct({ categoryId: products.categoryId })
            .from(products)
            .where(
              and(
                eq(products.active, true),
                sql`exists (select 1 from ${productFromPrices} pp where pp.product_id = ${products.id} and pp.market = ${market})`,
              ),
            )
        : Promise.resolve(null),
    ]);
    const forSale = selling && new Set(selling.map((r) => r.categoryId));
    const shown = (id: number) => !forSale || forSale.has(id);
    return rows
      .filter((r) => r.parentId === null)
      .map((p) => {
        const subs = rows.filter((r) => r.parentId === p.id && shown(r.id));
        return { parent: p, own: shown(p.id), subs };
      })
      .filter(({ own, subs }) => own || subs.length > 0)
      .map(({ parent, subs }) => ({ ...categoryDto(parent), subCategories: subs.map((r) => ({ id: r.id, name: r.name })) }));
  }

  return {
    /** The menu on every page. */
    parentCategories(market?: MarketCode): Promise<ParentCategoryDto[]> {
      // What is for sale changes with the products (listing), as well as with the categories (nav).
      return remember(memo, `nav:${market ?? 'all'}`, () => loadParentCategories(market), () => [cacheTags.nav, cacheTags.listing]);
    },

    async subCategories(parentId: number): Promise<NamedRef[]> {
      const [p] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, parentId)).limit(1);
      if (!p) throw new NotFound(message('category-not-found'));
      return db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(eq(categories.parentId, parentId))
        .orderBy(asc(categories.position));
    },

    async getCategory(id: number): Promise<CategoryDto & { subCategories: NamedRef[] }> {
      const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      if (!row) throw new NotFound(message('category-not-found'));
      const subs = await db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(eq(categories.parentId, id))
        .orderBy(asc(categories.position));
      return { ...categoryDto(row), subCategories: subs };
    },

    async findCategoryBySlug(slug: string): Promise<CategoryDto | null> {
      const [row] = await db.select().from(categories).where(eq(categories.slug, slug)).limit(1);
      return row ? categoryDto(row) : null;
    },
  };
}
