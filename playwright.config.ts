/**
 * Browser tests: real Chromium through the login and consent pages of a running
 * Gatehouse. The server is started by whoever runs the tests (scripts/test.ts),
 * which passes its URL in GATEHOUSE_TEST_URL and its database in
 * GATEHOUSE_TEST_DATABASE_URL; there is deliberately no `webServer` here.
 *
 * `npx playwright install` cannot download browsers everywhere, so Chromium is
 * taken from CHROMIUM_PATH, else Debian's chromium-headless-shell, else Debian's
 * /usr/bin/chromium, else Playwright's own. The headless shell first: it is the
 * browser Playwright itself runs headless tests in, and the same specs cost about
 * half the CPU there that full Chromium's headless mode costs (a full browser
 * lane: ~384 s of CPU against ~770 s for Chromium's processes alone), which on two
 * cores is most of the suite's wall time.
 */
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const executablePath = process.env.CHROMIUM_PATH || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));

export default defineConfig({
  testDir: 'e2e/browser',
  outputDir: 'test-results/playwright',
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // On CI a test that fails is tried once more, and scripts/test.ts lists every test that needed it (flaky)
  // above the summary line: a browser test on two busy cores can miss a timeout without anything being wrong,
  // and one such miss would otherwise fail the whole run. Locally a failure is a failure at once.
  retries: process.env.CI ? 1 : 0,
  // A test's whole time. In CI the browser lane shares two cores with both protocol lanes and their servers, and a
  // journey of a sign-in, a mail and a form that takes 8 s alone ran past 30 s there with its page already right
  // (the failure's screenshot showed the awaited text): a minute, and test.slow()'s three times that for the longer
  // journeys. A hang still fails, later.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: 10_000 },
  // Quiet: one line per test, no stdout echoed from tests, no HTML report; scripts/test.ts counts the
  // results from the JSON report it asks for (GATEHOUSE_TEST_PLAYWRIGHT_JSON), not from the list's text.
  reporter: process.env.GATEHOUSE_TEST_PLAYWRIGHT_JSON ? [['list'], ['json', { outputFile: process.env.GATEHOUSE_TEST_PLAYWRIGHT_JSON }]] : [['list']],
  quiet: true,
  reportSlowTests: null,
  use: {
    baseURL: process.env.GATEHOUSE_TEST_URL ?? 'http://localhost:3000',
    screenshot: 'only-on-failure',
    // Recording a trace of every test to keep the failed ones' costs CPU in every test (screencast frames and
    // DOM snapshots); on CI, where nobody opens them, the browser suite records none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    locale: 'en-US',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          // As root in a container; without the networking flags Chromium keeps dialing out.
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
    },
  ],
});
