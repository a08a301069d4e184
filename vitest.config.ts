import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { useTestCosts } from './tests/support/test-env.ts';

useTestCosts();

export default defineConfig({
  // The `@/` alias of tsconfig.json (Astro, tsx and Playwright read it from there).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/service/**/*.test.ts', 'tests/api/**/*.test.ts'],
    globalSetup: ['tests/api/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // API suites start their own servers; keep the 2-core machine from thrashing.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
