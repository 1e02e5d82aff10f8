import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4173);

/**
 * Browser tests run Debian's Chromium (no browser download here) against the real product,
 * started on a fresh data folder with the embedded stand-ins (tests/e2e/serve.ts).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.test-reports/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    // A failed walk keeps its trace (DOM snapshots, network, console); without the screencast's
    // frames, which every walk would otherwise record and encode (decision 218).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // Date and time fields drawn in the page's language (<html lang="fr">: 31/12/2026, 17:30),
        // as a French browser draws them; headless Chromium otherwise draws them in en-US whatever
        // the locale, --lang or LANG say, and the screenshots read 12/31/2026, 05:30 PM.
        '--enable-blink-features=LangAttributeAwareFormControlUI',
      ],
      // With Debian's chromium-l10n, an empty date field reads jj/mm/aaaa too (headless Chromium
      // takes its own language from LANGUAGE only).
      env: { ...process.env, LANGUAGE: 'fr' },
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node --import tsx tests/e2e/serve.ts',
    url: `http://localhost:${port}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
