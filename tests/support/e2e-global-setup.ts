import { prepareSeededTemplates } from './server';

/**
 * The seeded demo store, made once per end-to-end run on PGlite and PostgreSQL: the stores a suite
 * starts itself (startServer, prepareStore) copy it instead of seeding their own. Playwright passes
 * the templates' whereabouts (environment variables) on to its workers.
 */
export default async function setup(): Promise<() => Promise<void>> {
  return prepareSeededTemplates();
}
