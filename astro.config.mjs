// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { storeServer } from './src/server/integration';

export default defineConfig({
  output: 'server',
  // Middleware mode: src/server/entry.ts is the HTTP server (static files, compression) around it.
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), storeServer()],
  // The CSRF rule lives in src/middleware.ts (isCrossSiteWrite): it refuses cross-site
  // browser writes like Astro's check, but lets bearer-token API clients through.
  security: { checkOrigin: false },
  // Anonymous catalogue pages come from the route cache; see src/lib/server/page-cache.ts.
  cache: { provider: { name: 'maison-route-cache', entrypoint: new URL('./src/lib/server/route-cache-provider.ts', import.meta.url) } },
  server: { port: 4321, host: true },
  vite: {
    ssr: { external: ['@electric-sql/pglite', 'sharp', 'pg', 'nodemailer'] },
  },
});
