import { asc, count, eq, sql } from 'drizzle-orm';
import { designerKey, designerSlug, type DesignerDto, type DesignerInput } from '@/lib/domain/designers';
import { Conflict, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Actor } from '@/lib/server/backoffice/audit';
import type { Tx } from '@/lib/server/infra/db/client';
import { designers, products } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import type { AdminContext } from './context';

/** A unique violation on the designers' name or slug (two staff saving one name at once, or a slug already taken). */
const takenName = (err: unknown) => /designers_(name_uq|slug_unique)/.test(String((err as { cause?: unknown })?.cause ?? err));

/**
 * The designer an import row names, found by its name in any case, else created (its slug from the
 * name, suffixed by a time stamp when another designer holds it): in the import's transaction.
 */
export async function designerIdFor(tx: Tx, name: string, known: Map<string, number>): Promise<number> {
  const k = designerKey(name);
  const id = known.get(k);
  if (id !== undefined) return id;
  const [found] = await tx.select({ id: designers.id }).from(designers).where(eq(sql`lower(${designers.name})`, k)).limit(1);
  if (found) {
    known.set(k, found.id);
    return found.id;
  }
  const slug = designerSlug(name);
  const [taken] = await tx.select({ id: designers.id }).from(designers).where(eq(designers.slug, slug)).limit(1);
  const [row] = await tx
    .insert(designers)
    .values({ name: name.trim().replace(/\s+/g, ' '), slug: taken ? `${slug}-${Date.now().toString(36)}` : slug })
    .returning({ id: designers.id });
  known.set(k, row!.id);
  return row!.id;
}

/** The designers staff keep (name, slug, short text): the one writer of `designers`. */
export function createDesignerEditing(deps: AdminContext) {
  const { db, pageCache, record } = deps;
  return {
    /** Every designer A–Z with how many products name it (the back office's list and the product form's choice). */
    async listDesigners(): Promise<(DesignerDto & { products: number })[]> {
      const [rows, counts] = await Promise.all([
        db.select({ id: designers.id, name: designers.name, slug: designers.slug, about: designers.about }).from(designers).orderBy(asc(sql`lower(${designers.name})`)),
        db.select({ designerId: products.designerId, n: count() }).from(products).groupBy(products.designerId),
      ]);
      const countOf = new Map(counts.map((c) => [c.designerId, c.n]));
      return rows.map((d) => ({ ...d, products: countOf.get(d.id) ?? 0 }));
    },

    /** Creates (id null) or updates a designer; an empty slug is made from the name. Its products' pages and search documents follow. */
    async saveDesigner(actor: Actor, id: number | null, input: DesignerInput): Promise<{ id: number }> {
      const fields = { name: input.name, slug: input.slug || designerSlug(input.name), about: input.about };
      const saved = await db
        .transaction(async (tx): Promise<{ id: number; named: number[] }> => {
          if (id === null) {
            const [row] = await tx.insert(designers).values(fields).returning({ id: designers.id });
            await record(actor, { action: 'designer.create', entity: 'designer', entityId: row!.id, details: { after: fields } }, tx);
            return { id: row!.id, named: [] };
          }
          const [before] = await tx.select().from(designers).where(eq(designers.id, id)).for('update');
          if (!before) throw new NotFound(message('designer-not-found'));
          await tx.update(designers).set(fields).where(eq(designers.id, id));
          const named = (await tx.select({ id: products.id }).from(products).where(eq(products.designerId, id))).map((p) => p.id);
          // The designer's name is in its products' search documents.
          if (before.name !== fields.name) await deps.search?.refresh(named, tx);
          await record(actor, { action: 'designer.update', entity: 'designer', entityId: id, details: { before: { name: before.name, slug: before.slug, about: before.about }, after: fields } }, tx);
          return { id, named };
        })
        .catch((err: unknown) => {
          if (takenName(err)) throw new Conflict(message('designer-taken'));
          throw err;
        });
      // The A–Z page and the filters list the designer; its products' cards and pages show it.
      await pageCache.invalidate([cacheTags.designers, cacheTags.listing, ...saved.named.map((pid) => cacheTags.product(pid))]);
      return { id: saved.id };
    },
  };
}
