import { asc, and, eq, max } from 'drizzle-orm';
import { Invalid, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Actor } from '@/lib/server/backoffice/audit';
import { processCatalogueImage } from '@/lib/server/accounts/avatars';
import { productImages, variants } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import type { Tx } from '@/lib/server/infra/db/client';
import type { AdminContext } from './context';
import { productExists } from './product-reading';

/** Pictures an import adds after a product's last ones, in the import's transaction (already through the sharp pipeline and stored). */
export async function appendImportedImages(tx: Tx, productId: number, images: readonly { hash: string; alt: string }[], fallbackAlt: string): Promise<void> {
  if (images.length === 0) return;
  const [last] = await tx.select({ m: max(productImages.position) }).from(productImages).where(eq(productImages.productId, productId));
  const start = (last?.m ?? -1) + 1;
  await tx.insert(productImages).values(images.map((im, i) => ({ productId, position: start + i, mediaHash: im.hash, alt: im.alt.trim() || fallbackAlt })));
}

/** A product's pictures, in staff's order, each showing a colour or every colour: the one writer of `product_images`. */
export function createImageEditing(deps: AdminContext) {
  const { db, pageCache, record } = deps;
  return {
    /** Uploads a picture (checked and re-encoded with sharp) as the product's last image. */
    async addImage(actor: Actor, productId: number, bytes: Uint8Array, alt: string): Promise<{ id: number; hash: string }> {
      if (!deps.media) throw new Error('catalogue admin has no media service');
      const product = await productExists(db, productId);
      const image = await processCatalogueImage(bytes, 'product');
      const hash = await deps.media.store(image.bytes, image.contentType, { width: image.width, height: image.height });
      const id = await db.transaction(async (tx) => {
        const [last] = await tx.select({ m: max(productImages.position) }).from(productImages).where(eq(productImages.productId, productId));
        const [row] = await tx
          .insert(productImages)
          .values({ productId, position: (last?.m ?? -1) + 1, mediaHash: hash, alt: alt.trim() || product.name })
          .returning({ id: productImages.id });
        await record(actor, { action: 'image.add', entity: 'product', entityId: productId, details: { after: { imageId: row!.id, hash, alt } } }, tx);
        return row!.id;
      });
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
      return { id, hash };
    },

    /** One image: its alt text, the colour it shows (null: every colour; only a colour the product comes in), its place, or away. */
    async editImage(actor: Actor, productId: number, imageId: number, op: { alt?: string; colorId?: number | null; move?: 'up' | 'down'; remove?: boolean }): Promise<void> {
      await db.transaction(async (tx) => {
        const images = await tx.select().from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.position)).for('update');
        const i = images.findIndex((im) => im.id === imageId);
        const image = images[i];
        if (!image) throw new NotFound(message('image-not-found'));
        if (op.remove) {
          await tx.delete(productImages).where(eq(productImages.id, imageId));
          await record(actor, { action: 'image.delete', entity: 'product', entityId: productId, details: { before: { imageId, hash: image.mediaHash, alt: image.alt } } }, tx);
          return;
        }
        if (op.alt !== undefined) {
          const alt = op.alt.trim();
          if (!alt) throw new Invalid(message('alt-required'));
          await tx.update(productImages).set({ alt }).where(eq(productImages.id, imageId));
          await record(actor, { action: 'image.alt', entity: 'product', entityId: productId, details: { imageId, before: image.alt, after: alt } }, tx);
        }
        if (op.colorId !== undefined) {
          if (op.colorId !== null) {
            const [sold] = await tx.select({ id: variants.id }).from(variants).where(and(eq(variants.productId, productId), eq(variants.colorId, op.colorId))).limit(1);
            if (!sold) throw new Invalid(message('image-colour-not-offered'));
          }
          await tx.update(productImages).set({ colorId: op.colorId }).where(eq(productImages.id, imageId));
          await record(actor, { action: 'image.colour', entity: 'product', entityId: productId, details: { imageId, before: image.colorId, after: op.colorId } }, tx);
        }
        if (op.move) {
          const other = images[op.move === 'up' ? i - 1 : i + 1];
          if (!other) return;
          // positions are unique per product: park one at -1 while swapping
          await tx.update(productImages).set({ position: -1 }).where(eq(productImages.id, image.id));
          await tx.update(productImages).set({ position: image.position }).where(eq(productImages.id, other.id));
          await tx.update(productImages).set({ position: other.position }).where(eq(productImages.id, image.id));
          await record(actor, { action: 'image.move', entity: 'product', entityId: productId, details: { imageId, before: image.position, after: other.position } }, tx);
        }
      });
      await pageCache.invalidate([cacheTags.product(productId), cacheTags.listing]);
    },
  };
}
