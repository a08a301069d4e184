/**
 * The PostgreSQL extensions the schema uses (search: pg_trgm, unaccent), as PGlite loads them:
 * given to every PGlite the store or its tests create, before the migrations run.
 */
export async function pgliteExtensions() {
  const [{ pg_trgm }, { unaccent }] = await Promise.all([import('@electric-sql/pglite/contrib/pg_trgm'), import('@electric-sql/pglite/contrib/unaccent')]);
  return { pg_trgm, unaccent };
}
