// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { storeServer } from './src/server/integration';
import { MAX_BODY_BYTES } from './src/server/http-policy';

/**
 * The browser's scripts in a few chunks that load together, instead of a chunk per shared module:
 * on a phone every request is a round trip. Pages still fetch only what they run: Swiper stays a
 * chunk of its own, imported when the banner turns, and pages without islands load no React.
 * - `store`: the plain client modules the chrome (src/layouts/chrome.ts) and the home page's
 *   scripts share, what they import, and the bundler's runtime. Every page loads the chrome, so
 *   every page loads this.
 * - `react`: React, its DOM client, Astro's renderer, the components the purchase path's islands share (src/components/*.tsx; those only account pages use live in src/components/account/ and come with their islands) and the toaster
 *   (src/lib/client/toaster-root.ts, 1.7 KB, which src/lib/client/toast.ts imports with a page's
 *   first toast). Islands need all of it but the toaster, small enough to come along rather than
 *   cost a request of its own; pages without islands load the chunk with their first toast, as
 *   the toaster needs React anyway.
 * Each group takes what its modules import too; `store` chooses first, so `react` never holds a
 * module a page without islands needs.
 * @type {import('rolldown').CodeSplittingGroup[]}
 */
/** Stylesheets below this size (raw bytes) are written into the page instead of linked. */
const CSS_INLINE_BYTES = 8192;
/** Page stylesheets linked whatever their size: the product page's (see assetsInlineLimit below). */
const LINKED_SHEETS = /(^|\/)_productId_\.[\w-]+\.css$/;

const clientChunks = [
  {
    name: 'store',
    priority: 2,
    test: /src[\\/]lib[\\/]client[\\/](api|form-send|image-fallback|navigate|offline|offline-forms|pictures|product-card|session|stores|toast)\.ts$|vite[\\/]preload-helper|rolldown[\\/]runtime/,
  },
  {
    name: 'react',
    priority: 1,
    test: /node_modules[\\/](react|react-dom|react-hot-toast|scheduler|@astrojs[\\/]react|@nanostores[\\/]react)[\\/]|src[\\/]components[\\/]\w+\.tsx$|src[\\/]lib[\\/]client[\\/](forms|pending-email|toaster-root)\.ts$/,
  },
];

/** `client:reach`: an island that hydrates when the shopper reaches for it (src/lib/client/hydrate-on-reach.ts). */
/** @type {import('astro').AstroIntegration} */
const hydrateOnReach = {
  name: 'hydrate-on-reach',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => addClientDirective({ name: 'reach', entrypoint: fileURLToPath(new URL('./src/lib/client/hydrate-on-reach.ts', import.meta.url)) }),
  },
};

export default defineConfig({
  output: 'server',
  // Middleware mode: src/server/entry.ts is the HTTP server (static files, compression) around it.
  // bodySizeLimit: the largest body any route takes (a picture upload); routes have smaller limits (src/server/http-policy.ts).
  adapter: node({ mode: 'middleware', bodySizeLimit: MAX_BODY_BYTES }),
  integrations: [react(), storeServer(), hydrateOnReach],
  // The CSRF rule lives in src/middleware.ts (isCrossSiteWrite): it refuses cross-site
  // browser writes like Astro's check, but lets bearer-token API clients through.
  security: {
    checkOrigin: false,
    // Content-Security-Policy: Astro hashes every script and style it emits into a <meta> CSP.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        // PAY & PLACE ORDER is a form post that the server redirects to the payment page.
        "form-action 'self' https://checkout.paystack.com",
        // Astro sends this policy as a response header for rendered pages, so frame-ancestors applies.
        "frame-ancestors 'none'",
      ],
      // Style attributes (React islands, swiper) need 'unsafe-inline' for styles; scripts stay hash-only.
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  // Anonymous catalogue pages come from the route cache; see src/lib/server/storefront/page-cache.ts.
  cache: { provider: { name: 'maison-route-cache', entrypoint: new URL('./src/lib/server/storefront/route-cache-provider.ts', import.meta.url) } },
  // No code blocks in the content pages; Shiki's inline styles would fight the CSP.
  markdown: { syntaxHighlight: false },
  server: { port: 4321, host: true },
  vite: {
    // Names this build's service worker caches (src/lib/server/offline/service-worker.ts); BUILD_ID may override it.
    define: { __STORE_BUILD_ID__: JSON.stringify(Date.now().toString(36)) },
    environments: { client: { build: { rolldownOptions: { output: { codeSplitting: { groups: clientChunks } } } } } },
    // A page's own small stylesheet (the cart and checkout's) goes in its HTML: one round trip fewer
    // on a phone for a kilobyte or two; the shared Layout sheet stays a cached file. The product
    // page's is linked too: it is the page a shopper opens again and again, and a signed-in copy
    // is sent whole each time (ADR 0016), so its sheet is taken from the cache after the first.
    build: { assetsInlineLimit: (file, content) => (file.endsWith('.css') ? content.length < CSS_INLINE_BYTES && !LINKED_SHEETS.test(file) : undefined) },
    // Loaded from node_modules at run time, not bundled: pdfkit reads its own data files beside its code,
    // and the faces handed to it are fontkit's, one copy for both.
    // drizzle-orm is bundled: loaded from node_modules, each of its ~200 files makes Node parse its
    // 179 KB package.json again to learn the file's module type, about 0.6 s of every start.
    ssr: { external: ['@electric-sql/pglite', 'sharp', 'pg', 'nodemailer', 'pdfkit', 'fontkit'], noExternal: ['drizzle-orm'] },
  },
});
