/**
 * German (and any language) wraps between words on a phone: at 390 px no line of the German sign-in,
 * consent and account chooser pages ends inside a word ("zurüc|k", "z|urück" were issue 23's). Each
 * text node's words are measured with Range.getClientRects: a word whose characters sit on two lines is
 * split. Hyphenation (hyphens: auto, where the browser has the language's patterns) may split a long word
 * at a syllable, never leaving fewer than two letters on either line; a domain name may break anywhere.
 * `<html lang>` is the page's language, which hyphenation follows.
 */
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';

// Several sign-ins and form posts per test, on a machine the other suites share: more time than the defaults.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const shoot = screenshots('word-breaks');

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'de-DE' });

/** The words split across two lines on the page, each with the part left on its first line; and how many words wrapped lines hold. */
async function splitWords(page: Page): Promise<{ split: string[]; measured: number }> {
  return page.evaluate(() => {
    const split: string[] = [];
    let measured = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || element.closest('script, style, noscript, [hidden], .sr-only') || !element.getClientRects().length) continue;
      // A host name or an id (wrap-anywhere on its own element) may break anywhere.
      if (getComputedStyle(element).overflowWrap === 'anywhere') continue;
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[\p{L}\p{N}]+(?:[’'.-][\p{L}\p{N}]+)*/gu)) {
        const word = match[0];
        const tops: number[] = [];
        for (let i = 0; i < word.length; i++) {
          const range = document.createRange();
          range.setStart(node, match.index + i);
          range.setEnd(node, match.index + i + 1);
          const rect = [...range.getClientRects()].find((r) => r.width > 0);
          if (rect) tops.push(Math.round(rect.top));
        }
        const lines = [...new Set(tops)];
        measured++;
        if (lines.length < 2) continue;
        const head = tops.filter((top) => top === lines[0]).length;
        const hyphenated = getComputedStyle(element).hyphens === 'auto' && head >= 2 && word.length - head >= 2;
        if (!hyphenated) split.push(`${word.slice(0, head)}|${word.slice(head)}`);
      }
    }
    return { split, measured };
  });
}

async function noWordSplit(page: Page, name: string) {
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  await shoot(page, name);
  const { split, measured } = await splitWords(page);
  // The page's text was measured (not an empty walk): a sign-in card holds a few dozen words, the chooser fewer.
  expect(measured).toBeGreaterThan(20);
  expect(split, `${name}: words split across lines`).toEqual([]);
}

test('the German sign-in, consent and chooser pages at 390 px: no line ends inside a word', async ({ page }) => {
  const user = await makeUser({ name: 'Maximiliane Zurückhaltend' });
  // A long app name and a long domain, as real ones are.
  const client = await makeClient({
    name: 'Zurückhaltende Bestellverwaltungsanwendung',
    redirectUris: ['https://bestellverwaltung.zurueckhaltende-handelsgesellschaft.example/anmeldung/zurueck'],
  });
  const redirect = 'https://bestellverwaltung.zurueckhaltende-handelsgesellschaft.example/anmeldung/zurueck';
  const first = await authorizationRequest(client, { redirect_uri: redirect });
  await page.goto(first.url.href);
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await noWordSplit(page, 'sign-in-de');

  await page.getByLabel('Benutzername').fill(user.username);
  await page.getByLabel('Passwort', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('heading', { name: /erlauben\?$/ })).toBeVisible();
  await noWordSplit(page, 'consent-de');

  const second = await authorizationRequest(client, { redirect_uri: redirect, prompt: 'select_account' });
  await page.goto(second.url.href);
  await expect(page.getByRole('heading', { name: 'Konto auswählen' })).toBeVisible();
  await noWordSplit(page, 'chooser-de');
});
