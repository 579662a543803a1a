import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium where it is installed (CI, offline machines); otherwise Playwright's own browser. */
const systemChromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

// One id per run, for the workers (they inherit the runner's environment): what a run makes once and
// its workers share (the packed tarballs) is keyed by it.
process.env.PORTHOLE_E2E_RUN ??= `${Date.now().toString(36)}-${process.pid}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  // Spec files run in two workers, tests within a file in order. What specs share is made once per
  // run (e2e/support/run-once.ts); the window is built before the workers start.
  workers: 1,
  globalSetup: './e2e/global-setup.ts',
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
