import { and, asc, eq, exists, sql } from 'drizzle-orm';
import type { DesignerDto } from '@/lib/domain/designers';
import type { Db } from '@/lib/server/infra/db/client';
import { designers, products } from '@/lib/server/catalogue/tables';
import { cacheTags } from '@/lib/server/storefront/page-cache';
import { remember, type ReadMemo } from '@/lib/server/infra/read-memo';

/** The designers' A–Z: every designer with a piece on the storefront, with its short text. */
export function createDesignerReading({ db, memo }: { db: Db; memo?: ReadMemo | undefined }) {
  return {
    designers(): Promise<DesignerDto[]> {
      return remember(
        memo,
        'designers',
        () =>
          db
            .select({ id: designers.id, name: designers.name, slug: designers.slug, about: designers.about })
            .from(designers)
            .where(exists(db.select({ one: sql`1` }).from(products).where(and(eq(products.designerId, designers.id), eq(products.active, true)))))
            .orderBy(asc(sql`lower(${designers.name})`)),
        // A product put on or taken off the storefront can add or remove a designer.
        () => [cacheTags.designers, cacheTags.listing],
      );
    },
  };
}
