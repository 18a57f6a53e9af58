import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromAcceptLanguage, fromUiLocales, negotiateLocale, supportedLocaleOf } from './locale.ts';

test('a tag matches by its primary subtag, in any case', () => {
  assert.equal(supportedLocaleOf('de-CH'), 'de');
  assert.equal(supportedLocaleOf('DE'), 'de');
  assert.equal(supportedLocaleOf('en-GB'), 'en');
  assert.equal(supportedLocaleOf('fr-FR'), undefined);
  assert.equal(supportedLocaleOf('deu'), undefined);
});

test('ui_locales: the first supported tag in the order given', () => {
  assert.equal(fromUiLocales('fr-CA fr de-DE en'), 'de');
  assert.equal(fromUiLocales('en de'), 'en');
  assert.equal(fromUiLocales('fr ja'), undefined);
  assert.equal(fromUiLocales(''), undefined);
  assert.equal(fromUiLocales(undefined), undefined);
});

test('Accept-Language: the highest q-value wins, order breaks ties, q=0 is refused', () => {
  assert.equal(fromAcceptLanguage('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7'), 'de');
  assert.equal(fromAcceptLanguage('en;q=0.5, de;q=0.8'), 'de');
  assert.equal(fromAcceptLanguage('fr-FR, en;q=0.3, de;q=0.3'), 'en');
  assert.equal(fromAcceptLanguage('de;q=0, en;q=0.1'), 'en');
  assert.equal(fromAcceptLanguage('fr, *;q=0.5'), undefined);
  assert.equal(fromAcceptLanguage('de ; Q = 0.4 , ja'), 'de');
  assert.equal(fromAcceptLanguage('de;q=abc'), 'de', 'a malformed q counts as 1');
  assert.equal(fromAcceptLanguage(''), undefined);
  assert.equal(fromAcceptLanguage(null), undefined);
});

test('the language the person chose first, over ui_locales and Accept-Language; a chosen value that is no language is ignored', () => {
  assert.equal(negotiateLocale({ chosen: 'de', uiLocales: 'en', acceptLanguage: 'en-US', defaultLocale: 'en' }), 'de');
  assert.equal(negotiateLocale({ chosen: 'en', uiLocales: 'de', acceptLanguage: 'de-DE', defaultLocale: 'de' }), 'en');
  assert.equal(negotiateLocale({ chosen: 'fr', uiLocales: 'de', defaultLocale: 'en' }), 'de');
  assert.equal(negotiateLocale({ chosen: 'DE', acceptLanguage: 'en', defaultLocale: 'en' }), 'en', 'only the exact code the switcher sets');
});

test('ui_locales first, then Accept-Language, then the default', () => {
  assert.equal(negotiateLocale({ uiLocales: 'de', acceptLanguage: 'en-US,en', defaultLocale: 'en' }), 'de');
  assert.equal(negotiateLocale({ uiLocales: 'fr', acceptLanguage: 'de-DE', defaultLocale: 'en' }), 'de');
  assert.equal(negotiateLocale({ acceptLanguage: 'en-US', defaultLocale: 'de' }), 'en');
  assert.equal(negotiateLocale({ acceptLanguage: 'fr-FR', defaultLocale: 'de' }), 'de');
  assert.equal(negotiateLocale({ defaultLocale: 'en' }), 'en');
});
