import { defineConfig, devices } from '@playwright/test';
import { commonRun, commonUse, phoneProject } from './tests/support/playwright-common';

const PORT = Number(process.env.E2E_PORT ?? 4400);
export const baseURL = `http://127.0.0.1:${PORT}`;
const dataDir = `.e2e-data/${PORT}`;
/** pglite (default) or pg: which database the store under test runs on. */
const driver = process.env.E2E_DRIVER === 'pg' ? 'pg' : 'pglite';

/**
 * End-to-end tests click through the built server in Debian's Chromium, at phone and
 * desktop widths, on a fresh database seeded at start: embedded PGlite, or a new PostgreSQL
 * database with E2E_DRIVER=pg (tests/support/e2e-server.ts).
 *
 * The phone project runs every test. The desktop project runs only the tests tagged `@desktop`:
 * what looks or works otherwise at 1366 px (the header and side menu, the home page, collection
 * and product gallery, the buying path, the account pages, the back office). A behaviour that is
 * the same at every width runs once, at phone width (ADR 0046).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `test-results/e2e-${driver}-${PORT}`,
  ...commonRun,
  workers: 2,
  use: {
    baseURL,
    ...commonUse,
  },
  projects: [
    phoneProject,
    { name: 'desktop', grep: /@desktop/, use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 850 } } },
  ],
  webServer: {
    command: 'tsx tests/support/e2e-server.ts',
    // Not `url`: anything answering there would do. The e2e server prints this once the store it
    // started has bound PORT and answers as itself; a taken PORT makes it exit with the store's error.
    wait: { stdout: /store ready on / },
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the store finish and the e2e server drop its PostgreSQL database
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      E2E_DRIVER: driver,
      PUBLIC_SITE_URL: baseURL,
      LOG_LEVEL: 'warn',
      // Every test shopper signs up from 127.0.0.1 (tests/api/signup-flood.test.ts tests the limit).
      SIGNUPS_PER_ADDRESS_PER_MINUTE: '10000',
      SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
    },
  },
});
