// @ts-check
/**
 * The house's layer rules (docs/architecture.md), checked on every `npm test` so they cannot rot:
 * - islands and browser code never import server code;
 * - pages, endpoints, components and layouts never import the schema, the database client or drizzle
 *   (they call a service);
 * - domain code does no I/O and depends on nothing but itself and zod;
 * - infrastructure (src/lib/server/infra) imports no feature, page, component or services.ts
 *   (house/infra-imports, eslint/house.js);
 * - a feature's tables (src/lib/server/<feature>/tables.ts) are written only by that feature's
 *   modules, each table by the module eslint/table-owners.js names (house/table-writes).
 * Style is left to the type checker and review; only the structure is linted here.
 */
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import house from './eslint/house.js';
import { ASIDE, COLUMN_OWNERS, TABLE_OWNERS } from './eslint/table-owners.js';

/** Import paths (as written, relative or aliased) that reach a layer. */
const SERVER_CODE = ['**/lib/server', '**/lib/server/**', '**/server/*', '@/lib/server/**', '@/server/**', 'astro:middleware'];
const DATABASE = ['**/server/*/tables', '**/server/*/tables.*', '**/db/client', '**/db/client.*', 'drizzle-orm', 'drizzle-orm/**', 'pg', '@electric-sql/pglite', '@electric-sql/pglite/**'];
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
  {
    files: ['src/lib/server/**/*.ts'],
    plugins: { house },
    rules: { 'house/table-writes': ['error', { tables: TABLE_OWNERS, columns: COLUMN_OWNERS, aside: ASIDE }] },
  },
  {
    files: ['src/lib/server/infra/**/*.ts'],
    plugins: { house },
    rules: { 'house/infra-imports': 'error' },
  },
];
