import { defineConfig } from 'drizzle-kit';

/** Each feature owns its tables (src/lib/server/<feature>/tables.ts); infrastructure's are in infra/tables.ts. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/lib/server/*/tables.ts',
  out: './src/lib/server/infra/db/migrations',
});
