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
  // The specs are ready for two workers (`--workers=2`: spec files in parallel, tests within a file
  // in order): what they share is made once per run (e2e/support/run-once.ts) and the window is
  // built before any worker starts. One until two runs of the whole suite are green on a quiet
  // 2-core machine (on a loaded one, start-up bounds of 3–20 s fail with one worker as with two).
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
