import { defineConfig, devices } from '@playwright/test';
import { commonRun, commonUse, phoneProject } from './tests/support/playwright-common';

const PORT = Number(process.env.E2E_PORT ?? 4400);
export const baseURL = `http://127.0.0.1:${PORT}`;
/** pglite (default) or pg: which database the store under test runs on. */
const driver = process.env.E2E_DRIVER === 'pg' ? 'pg' : 'pglite';

/**
 * The journeys that move money or accounts run, at phone width, on a second store on PostgreSQL
 * (project `phone-pg`); everything else runs on the embedded PGlite the demo store runs on. A run
 * told E2E_DRIVER=pg runs every project on PostgreSQL instead.
 */
const MONEY_JOURNEYS = ['accounts', 'buying', 'markets', 'discounts', 'transfers', 'after-sales'].map((name) => `**/${name}.spec.ts`);
const PG_PORT = PORT + 50;

/** What 1366 px changes: the tests tagged `@desktop`. */
const desktopProject = { name: 'desktop', grep: /@desktop/, use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 850 } } };

/** The store a project's tests drive: the built server on a fresh database (tests/support/e2e-server.ts). */
function store(port: number, storeDriver: 'pglite' | 'pg') {
  const url = `http://127.0.0.1:${port}`;
  return {
    command: 'tsx tests/support/e2e-server.ts',
    // Not `url`: anything answering there would do. The e2e server prints this once the store it
    // started has bound its port and answers as itself; a taken port makes it exit with the store's error.
    wait: { stdout: /store ready on / },
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the store finish and the e2e server drop its PostgreSQL database
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `.e2e-data/${port}`,
      E2E_DRIVER: storeDriver,
      PUBLIC_SITE_URL: url,
      LOG_LEVEL: 'warn',
      // Every test shopper signs up from 127.0.0.1 (tests/api/signup-flood.test.ts tests the limit).
      SIGNUPS_PER_ADDRESS_PER_MINUTE: '10000',
      SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
    },
  };
}

/**
 * End-to-end tests click through the built server in Debian's Chromium, at phone and
 * desktop widths, on fresh databases seeded at start: embedded PGlite, and a new PostgreSQL
 * database for the money journeys (tests/support/e2e-server.ts). Stores a suite starts itself copy
 * a demo store seeded once per run (tests/support/e2e-global-setup.ts).
 *
 * The phone projects run every test once. The desktop project runs only the tests tagged `@desktop`:
 * what looks or works otherwise at 1366 px (the header and side menu, the home page, collection
 * and product gallery, the buying path, the account pages, the back office). A behaviour that is
 * the same at every width runs once, at phone width (ADR 0046, 0068).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `test-results/e2e-${driver}-${PORT}`,
  ...commonRun,
  workers: 2,
  globalSetup: './tests/support/e2e-global-setup.ts',
  use: {
    baseURL,
    ...commonUse,
  },
  projects:
    driver === 'pg'
      ? [
          { ...phoneProject, metadata: { driver } },
          { ...desktopProject, metadata: { driver } },
        ]
      : [
          { ...phoneProject, testIgnore: MONEY_JOURNEYS, metadata: { driver } },
          { ...phoneProject, name: 'phone-pg', testMatch: MONEY_JOURNEYS, use: { ...phoneProject.use, baseURL: `http://127.0.0.1:${PG_PORT}` }, metadata: { driver: 'pg' } },
          { ...desktopProject, metadata: { driver } },
        ],
  webServer: driver === 'pg' ? [store(PORT, 'pg')] : [store(PORT, 'pglite'), store(PG_PORT, 'pg')],
});
