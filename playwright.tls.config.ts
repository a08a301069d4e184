import { defineConfig } from '@playwright/test';
import { commonRun, commonUse, phoneProject } from './tests/support/playwright-common';

const PORT = Number(process.env.E2E_PORT ?? 4400);
/** The store's public origin: nginx terminating TLS (tests/support/tls-server.ts). */
export const baseURL = `https://127.0.0.1:${PORT}`;
/** nginx's plain-http server, which only redirects to https. */
const REDIRECT_PORT = PORT + 1;

/**
 * The purchase through a real TLS-terminating nginx built from deploy/nginx.conf, with a self-signed
 * certificate (hence ignoreHTTPSErrors), with and without JavaScript: the browser is on https, the
 * store sees http from nginx and must still take its writes (issue 16).
 */
export default defineConfig({
  testDir: 'tests/e2e-tls',
  outputDir: `test-results/e2e-tls-${PORT}`,
  ...commonRun,
  workers: 1,
  use: {
    baseURL,
    ignoreHTTPSErrors: true,
    ...commonUse,
  },
  projects: [phoneProject],
  webServer: {
    command: 'tsx tests/support/tls-server.ts',
    // Not `url`: anything answering there would do. tls-server.ts prints this once nginx and the
    // store it started are up and their own (a taken port fails it with the error).
    wait: { stdout: /store ready on / },
    timeout: 120_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      TLS_PORT: String(PORT),
      REDIRECT_PORT: String(REDIRECT_PORT),
      DATA_DIR: `.e2e-data/tls-${PORT}`,
      LOG_LEVEL: 'warn',
    },
  },
});
