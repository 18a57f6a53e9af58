/**
 * Signed-in state for browser specs where signing in is not what they test: each Playwright worker
 * makes one admin and one person of its own, signs each in to the portal once through Gatehouse's real
 * login (the admin's code step included), and the `page` of every `asAdmin` or `asPerson` test is in a
 * new browser context holding those cookies (Playwright's storageState). Signing in itself, signing out
 * and sessions are tested where they are the subject, each with a user and a sign-in of its own
 * (admin.spec.ts, account.spec.ts, sign-in.spec.ts).
 *
 * Tests sharing a worker's admin or person must leave its sessions alone: sign out, change its
 * password or role, or end its sessions only with a user of the test's own (makeUser).
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

/** The worker's sessions, made the first time a test of the worker asks for one. */
const sessions = base.extend<object, { adminSession: Session; personSession: Session }>({
  adminSession: [
    async ({ browser }, use) => {
      const user = await makeUser({ role: 'admin', name: 'Ada Admin' });
      await use({ user, state: await signedIn(browser, user, '/admin/clients', /\/admin\/clients$/) });
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  personSession: [
    async ({ browser }, use) => {
      const user = await makeUser({ name: 'Grace Hopper' });
      await use({ user, state: await signedIn(browser, user, '/account', /\/account$/) });
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

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
export const asAdmin = sessions.extend<{ admin: User }>({
  page: async ({ browser, adminSession }, use) => sessionPage(browser, adminSession, use),
  admin: async ({ adminSession }, use) => use(adminSession.user),
});

/** Tests whose `page` is the worker's person's, signed in to /account (on no page yet); `person` is that person. */
export const asPerson = sessions.extend<{ person: User }>({
  page: async ({ browser, personSession }, use) => sessionPage(browser, personSession, use),
  person: async ({ personSession }, use) => use(personSession.user),
});
