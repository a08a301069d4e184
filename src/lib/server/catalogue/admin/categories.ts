import { asc, count, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Actor } from '@/lib/server/backoffice/audit';
import { processCatalogueImage } from '@/lib/server/accounts/avatars';
import { categories, products } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { slugify } from '@/lib/domain/designers';
import type { AdminContext } from './context';

/** The categories and their sub-categories as staff arrange them, with their banners: the one writer of `categories`. */
export function createCategoryEditing(deps: AdminContext) {
  const { db, pageCache, record } = deps;
  return {
    async listCategories() {
      const cats = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
      const counts = await db.select({ categoryId: products.categoryId, n: count() }).from(products).groupBy(products.categoryId);
      const countOf = new Map(counts.map((c) => [c.categoryId, c.n]));
      return cats
        .filter((c) => c.parentId === null)
        .map((p) => ({ ...p, subs: cats.filter((c) => c.parentId === p.id).map((s) => ({ ...s, products: countOf.get(s.id) ?? 0 })) }));
    },

    /** Creates (id null) or updates a category; with a parent it is a sub-category. */
    async saveCategory(actor: Actor, id: number | null, input: { name: string; description: string | null; position: number; parentId: number | null }): Promise<{ id: number }> {
      if (input.parentId !== null) {
        const [parent] = await db.select({ parentId: categories.parentId }).from(categories).where(eq(categories.id, input.parentId)).limit(1);
        if (!parent || parent.parentId !== null) throw new Invalid(message('sub-category-parent'));
        if (id !== null && id === input.parentId) throw new Invalid(message('category-own-parent'));
      }
      const slug = slugify(input.name);
      // Two new categories of one name at once both find the slug free: the one that loses takes a suffixed slug.
      const save = (suffixed: boolean) => db.transaction(async (tx) => {
        if (id === null) {
          const [taken] = suffixed ? [true] : await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug)).limit(1);
          const [row] = await tx
            .insert(categories)
            .values({ ...input, slug: taken ? `${slug}-${randomBytes(4).toString('hex')}` : slug })
            .returning({ id: categories.id });
          await record(actor, { action: 'category.create', entity: 'category', entityId: row!.id, details: { after: input } }, tx);
          return row!.id;
        }
        const [before] = await tx.select().from(categories).where(eq(categories.id, id)).for('update');
        if (!before) throw new NotFound(message('category-not-found'));
        if (input.parentId !== null && before.parentId === null) {
          const [child] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.parentId, id)).limit(1);
          if (child) throw new Conflict(message('category-has-children'));
        }
        await tx.update(categories).set(input).where(eq(categories.id, id));
        // The category's name is in its products' search documents (a rare change: every document is rebuilt).
        if (before.name !== input.name || before.parentId !== input.parentId) await deps.search?.refresh(null, tx);
        await record(
          actor,
          { action: 'category.update', entity: 'category', entityId: id, details: { before: { name: before.name, description: before.description, position: before.position, parentId: before.parentId }, after: input } },
          tx,
        );
        return id;
      });
      const saved = await save(false).catch((err: unknown) => {
        if (id === null && String((err as { cause?: unknown })?.cause ?? err).includes('categories_slug_unique')) return save(true);
        throw err;
      });
      await pageCache.invalidate([cacheTags.nav, cacheTags.listing]);
      return { id: saved };
    },

    async setCategoryBanner(actor: Actor, id: number, bytes: Uint8Array): Promise<{ hash: string }> {
      if (!deps.media) throw new Error('catalogue admin has no media service');
      const [before] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      if (!before) throw new NotFound(message('category-not-found'));
      const image = await processCatalogueImage(bytes, 'banner');
      const hash = await deps.media.store(image.bytes, image.contentType, { width: image.width, height: image.height });
      await db.update(categories).set({ imageHash: hash }).where(eq(categories.id, id));
      await record(actor, { action: 'category.banner', entity: 'category', entityId: id, details: { before: before.imageHash, after: hash } });
      await pageCache.invalidate([cacheTags.nav, cacheTags.listing]);
      return { hash };
    },
  };
}
