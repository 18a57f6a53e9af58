/**
 * Signed-in state for browser specs where signing in is not what they test: each Playwright worker
 * makes one admin of its own, signs it in to the portal once through Gatehouse's real login (its code
 * step included), and the `page` of every `asAdmin` test is in a new browser context holding those
 * cookies (Playwright's storageState). Signing in itself, signing out and sessions are tested where
 * they are the subject, each with a user and a sign-in of its own (admin.spec.ts, account.spec.ts,
 * sign-in.spec.ts); /account's tests change their person's profile, password and sessions, so each
 * keeps a person of its own.
 *
 * Tests sharing the worker's admin must leave its session alone: sign out, change a password or a
 * role, or end sessions only of a user of the test's own (makeUser).
 */
import { type Browser, type BrowserContextOptions, expect, type Page, test as base } from '@playwright/test';
import { baseUrl, makeUser } from './fixtures.ts';
import { gatehouseLogin } from './pages.ts';

type User = Awaited<ReturnType<typeof makeUser>>;
type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

interface Session {
  user: User;
  state: StorageState;
}

/** `user` signed in to the portal at `path` in a fresh context: the cookies that context ends with. */
async function signedIn(browser: Browser, user: User, path: string, landing: RegExp): Promise<StorageState> {
  // Made while a test sets up, so Playwright would lend this context that test's options: these are the session's own.
  const context = await browser.newContext({ baseURL: baseUrl, storageState: undefined, javaScriptEnabled: true, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(path);
    await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
    await gatehouseLogin(page, user);
    await expect(page).toHaveURL(landing);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A page in a new context holding `session`'s cookies, with the test's own options (JavaScript, viewport, locale). */
async function sessionPage(browser: Browser, session: Session, use: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ storageState: session.state });
  try {
    await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/**
 * Tests whose `page` is the worker's admin's, signed in to the portal (on no page yet); `admin` is that admin.
 * Other contexts a test makes (browser.newContext) start signed out, as before.
 */
export const asAdmin = base.extend<{ admin: User }, { adminSession: Session }>({
  // Made the first time a test of the worker asks for it.
  adminSession: [
    async ({ browser }, use) => {
      const user = await makeUser({ role: 'admin', name: 'Ada Admin' });
      await use({ user, state: await signedIn(browser, user, '/admin/clients', /\/admin\/clients$/) });
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  page: async ({ browser, adminSession }, use) => sessionPage(browser, adminSession, use),
  admin: async ({ adminSession }, use) => use(adminSession.user),
});
