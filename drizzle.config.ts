import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/lib/server/infra/db/schema.ts',
  out: './src/lib/server/infra/db/migrations',
});
