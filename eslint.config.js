// @ts-check
/**
 * The house's layer rules (docs/architecture.md), checked on every `npm test` so they cannot rot:
 * - islands and browser code never import server code;
 * - pages, endpoints, components and layouts never import the schema, the database client or drizzle
 *   (they call a service);
 * - domain code does no I/O and depends on nothing but itself and zod.
 * Style is left to the type checker and review; only the structure is linted here.
 */
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';

/** Import paths (as written, relative or aliased) that reach a layer. */
const SERVER_CODE = ['**/lib/server', '**/lib/server/**', '**/server/*', '@/lib/server/**', '@/server/**', 'astro:middleware'];
const DATABASE = ['**/db/schema', '**/db/client', '**/db/schema.*', '**/db/client.*', 'drizzle-orm', 'drizzle-orm/**', 'pg', '@electric-sql/pglite', '@electric-sql/pglite/**'];
const IO_MODULES = ['fs', 'fs/promises', 'http', 'https', 'http2', 'child_process', 'dgram', 'dns', 'tls', 'worker_threads', 'cluster']
  .flatMap((m) => [m, `node:${m}`])
  .concat(['nodemailer', 'sharp', 'pg', 'drizzle-orm', 'drizzle-orm/**', '@electric-sql/pglite']);

/** @param {string[]} groups @param {string} message */
const restrict = (groups, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
});

export default [
  { ignores: ['dist/**', 'node_modules/**', '.astro/**', 'data/**', '.e2e-data/**', 'test-results/**'] },
  tseslint.configs.base,
  ...astro.configs['flat/base'],
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
  },
  {
    // Hooks called in the same order on every render; effects' dependencies reviewed (warnings).
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/islands/**', 'src/lib/client/**', 'src/components/**/*.tsx'],
    rules: restrict([...SERVER_CODE, ...DATABASE], 'Islands and browser code never import server code: talk to the API through src/lib/client/api.ts.'),
  },
  {
    files: ['src/pages/**', 'src/components/**', 'src/layouts/**', 'src/middleware.ts'],
    rules: restrict(DATABASE, 'Pages, endpoints and components never touch the database: call a service from locals.services.'),
  },
  {
    files: ['src/lib/domain/**'],
    rules: restrict(
      [...IO_MODULES, '**/lib/server/**', '@/lib/server/**', '@/server/**', '../server/**', '../client/**', '**/lib/client/**', '@/lib/client/**', 'astro', 'astro:*', 'react'],
      'Domain code is pure: no I/O, no server or browser modules (pass what it needs in).',
    ),
  },
];
