import { devices } from '@playwright/test';
import { useTestCosts } from './test-env';

// Both configs import this file, in the runner and in every worker: their stores and the
// specs' own hashing use the test cost.
useTestCosts();

/** Debian's Chromium, headless, never a downloaded browser; no background connections on the closed network. */
export const debianChromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
};

/**
 * What every end-to-end run shares: a screenshot of a failure, and a trace of its retry. Recording a
 * trace of every test cost a tenth of the run's time (ADR 0068).
 */
export const commonUse = { trace: 'on-first-retry', screenshot: 'only-on-failure', launchOptions: debianChromium } as const;

/** A cheap Android phone's width. */
export const phoneProject = { name: 'phone', use: { ...devices['Desktop Chrome'], viewport: { width: 360, height: 740 }, isMobile: false, hasTouch: true } };

/** How every end-to-end run is paced and reported: a failed test runs once more, traced; a pass on that retry is reported as flaky. */
export const commonRun = {
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  retries: 1,
  reporter: [['list']] as [string][],
};
