import { defineConfig } from '@playwright/test';
import { BASE_URL } from './support/env';

/** The specs the phone project runs; the desktop project runs all the others. */
const PHONE_SPECS = '**/phone.spec.ts';

// Runs in Debian's Chromium against the built app served by the built server (see global-setup.ts).
// One worker: the journeys change shared demo accounts (password, two-factor), so they run in order.
// Two projects (issue #17): every feature spec on a desktop window, and the phone's own spec (the main
// journeys by touch and the check that no screen is wider than the phone) on a 390 × 844 touch screen.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: './artifacts/test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'sv-SE',
    timezoneId: 'Europe/Stockholm',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', testIgnore: PHONE_SPECS },
    {
      name: 'phone',
      testMatch: PHONE_SPECS,
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    },
  ],
});
