import { existsSync } from 'node:fs';
import { prepareSeededTemplates } from '../support/server';

/** API tests run against the built server; `npm test` builds first. Their servers start from seeded templates. */
export default async function setup() {
  const dist = process.env.STORE_DIST ?? 'dist';
  if (!existsSync(`${dist}/server/entry.mjs`)) {
    throw new Error(`${dist}/server/entry.mjs is missing: run npm run build first (npm test does).`);
  }
  return prepareSeededTemplates();
}
