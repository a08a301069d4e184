import { existsSync } from 'node:fs';
import { prepareSeededTemplates } from '../support/server';
import { prepareMigratedTemplates } from '../support/services';

/**
 * API tests run against the built server; `npm test` builds first. Their servers start from seeded
 * templates, the in-process services' databases from migrated ones.
 */
export default async function setup() {
  const dist = process.env.STORE_DIST ?? 'dist';
  if (!existsSync(`${dist}/server/entry.mjs`)) {
    throw new Error(`${dist}/server/entry.mjs is missing: run npm run build first (npm test does).`);
  }
  // One after the other: each already keeps the two cores busy, and the seeded servers must
  // answer their health check in time.
  const seeded = await prepareSeededTemplates();
  const migrated = await prepareMigratedTemplates().catch(async (err: unknown) => {
    // Nothing outlives a failed set-up.
    await seeded();
    throw err;
  });
  const cleanUp = async () => {
    await Promise.all([seeded(), migrated()]);
  };
  return cleanUp;
}
