import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { useTestCosts } from './tests/support/test-env.ts';

useTestCosts();

/**
 * Unit files that replace modules (`vi.mock`): a mock reaches only the modules a file imports
 * itself, so these run in a module registry of their own. Every other file shares one per worker
 * (`isolate: false`): importing the store anew for each file cost more than many files' tests
 * (ADR 0066).
 */
const MOCKING_UNIT_FILES = readdirSync('tests/unit', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && readFileSync(`tests/unit/${f}`, 'utf8').includes('vi.mock('))
  .map((f) => `tests/unit/${f}`);

export default defineConfig({
  // The `@/` alias of tsconfig.json (Astro, tsx and Playwright read it from there).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // API suites start their own servers; keep the 2-core machine from thrashing.
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: MOCKING_UNIT_FILES, isolate: false } },
      { extends: true, test: { name: 'unit-mocking', include: MOCKING_UNIT_FILES } },
      {
        extends: true,
        test: {
          name: 'stores',
          include: ['tests/service/**/*.test.ts', 'tests/api/**/*.test.ts'],
          // Each suite builds its services or servers itself (tests/support), from nothing a
          // module keeps: sharing the modules saves importing the store in each of 98 files.
          isolate: false,
          // Seeded and migrated templates, made once for the suites that start stores.
          globalSetup: ['tests/api/global-setup.ts'],
        },
      },
    ],
  },
});
