// The mail frame in the operator's brand: the name and the accent appear, the button's text
// and the links keep their contrast, and nothing is loaded from anywhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrast } from '../../config/colour.ts';
import { emailVerificationMail } from './email-verification.ts';
import { render } from './layout.ts';
import { passwordResetMail } from './password-reset.ts';
import { signInCodeMail } from './sign-in-code.ts';

const content = {
  subject: 'Hello',
  paragraphs: ['One <b>line</b>.'],
  action: { label: 'Go', url: 'https://id.acme.example/go?a=1&b=2' },
  footnotes: ['If not, ignore it.'],
};

/** Every URL-bearing attribute and CSS url() of the HTML: what a mail reader would fetch or follow. */
const remoteLoads = (html: string) =>
  [...html.matchAll(/<(img|link|script|iframe|object|embed|video|audio|source)\b|\b(src|srcset|background|poster)=|url\(/gi)].map((m) => m[0]);

test("the brand's name heads both bodies, in the accent; the button is the accent with readable text", () => {
  const mail = render({ name: 'Acme ID', accent: '#0ea5e9' }, content);
  assert.match(mail.text, /^Acme ID\n/);
  assert.match(mail.html, />Acme ID<\/p>/);
  const button = /<a href="[^"]*" style="display:inline-block;background:(#[0-9a-f]{6});color:(#[0-9a-f]{6});/.exec(mail.html);
  assert.ok(button, mail.html);
  assert.equal(button[1], '#0ea5e9');
  assert.ok(contrast(button[1], button[2]) >= 4.5);
  // The name and the link as text, darkened from the sky blue until they read on white.
  const onWhite = mail.html.replace(button[0], '');
  for (const [, colour] of onWhite.matchAll(/[;"]color:(#[0-9a-f]{6})/g)) assert.ok(contrast(colour, '#ffffff') >= 4.5, colour);
  assert.ok(onWhite.includes('color:#0e7da8'), 'the accent, darkened to 4.5:1 on white');
});

test('nothing remote: no images, styles, scripts or frames, only the one link (twice)', () => {
  const mail = render({ name: 'Acme ID', accent: '#4f46e5' }, content);
  assert.deepEqual(remoteLoads(mail.html), []);
  assert.deepEqual(
    [...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]),
    ['https://id.acme.example/go?a=1&#38;b=2', 'https://id.acme.example/go?a=1&#38;b=2'],
  );
  assert.ok(!mail.html.includes('<b>'), 'text is escaped');
});

test("the brand's name is escaped like any text", () => {
  const mail = render({ name: 'A&B <ID>', accent: '#4f46e5' }, content);
  assert.ok(mail.html.includes('A&#38;B &#60;ID&#62;'));
  assert.ok(!mail.html.includes('<ID>'));
});

test('each kind of mail names the brand in its subject and wears its accent', () => {
  const brand = { name: 'Acme ID', accent: '#e11d48' };
  const reset = passwordResetMail({
    brand,
    username: 'grace',
    locale: 'en',
    url: 'https://id.acme.example/password-reset/t',
    validMinutes: 30,
    requestedAt: new Date(0),
    ip: null,
    userAgent: null,
  });
  const verify = emailVerificationMail({
    brand,
    username: 'grace',
    email: 'grace@acme.example',
    locale: 'en',
    url: 'https://id.acme.example/verify-email/t',
    validHours: 24,
  });
  assert.equal(reset.subject, 'Reset your Acme ID password');
  assert.equal(verify.subject, 'Confirm your email address for Acme ID');
  for (const mail of [reset, verify]) {
    assert.ok(mail.html.includes('background:#e11d48'));
    assert.deepEqual(remoteLoads(mail.html), []);
  }
});

test('a mail in German: its words, the time the German way (in UTC, said so), <html lang="de">', () => {
  const mail = passwordResetMail({
    brand: { name: 'Acme ID', accent: '#4f46e5' },
    locale: 'de',
    username: 'grace',
    url: 'https://id.acme.example/password-reset/t',
    validMinutes: 30,
    requestedAt: new Date(Date.UTC(2026, 10, 23, 21, 5)),
    ip: null,
    userAgent: 'Firefox',
  });
  assert.equal(mail.subject, 'Ihr Passwort für Acme ID zurücksetzen');
  assert.match(mail.text, /Die Anfrage kam am 23\.11\.2026, 21:05 UTC von einer unbekannten Adresse, mit „Firefox“\./);
  assert.match(mail.text, /Oder öffnen Sie diesen Link|Neues Passwort wählen:/);
  assert.match(mail.html, /<html lang="de">/);
  assert.match(mail.html, /Oder öffnen Sie diesen Link:/);
});

test('the reset mail names the browser as /account does ("Chrome on Linux"), in the mail’s language, never the raw header', () => {
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const mail = (locale: 'en' | 'de') =>
    passwordResetMail({
      brand: { name: 'Acme ID', accent: '#4f46e5' },
      locale,
      username: 'grace',
      url: 'https://id.acme.example/password-reset/t',
      validMinutes: 30,
      requestedAt: new Date(0),
      ip: '198.51.100.7',
      userAgent: chrome,
    });
  assert.match(mail('en').text, /from 198\.51\.100\.7, using Chrome on Linux\./);
  assert.match(mail('de').text, /Chrome unter Linux/);
  for (const locale of ['en', 'de'] as const) assert.ok(!mail(locale).text.includes('AppleWebKit'), locale);
});

test('a code alone (the sign-in code): the code set apart in both bodies, no button and no link; in German too', () => {
  for (const locale of ['en', 'de'] as const) {
    const mail = signInCodeMail({ brand: { name: 'Acme ID', accent: '#0ea5e9' }, locale, username: 'pat', code: '012345', validMinutes: 15 });
    assert.match(mail.text, /^012345$/m);
    assert.match(mail.html, />012345<\/p>/);
    assert.doesNotMatch(mail.html, /<a\b/, 'nothing to click: a mail scanner cannot use it');
    assert.doesNotMatch(mail.subject, /012345/, 'not in the subject a lock screen shows');
    assert.match(mail.text, /15/);
    assert.deepEqual(remoteLoads(mail.html), []);
  }
});

test('a code beside the link, when the mail has one; none otherwise', () => {
  const base = {
    brand: { name: 'Acme ID', accent: '#0ea5e9' },
    locale: 'en' as const,
    username: 'pat',
    email: 'pat@example.com',
    url: 'https://id.acme.example/verify-email/t',
    validHours: 24,
  };
  const withCode = emailVerificationMail({ ...base, code: '987654', codeMinutes: 15 });
  assert.match(withCode.text, /https:\/\/id\.acme\.example\/verify-email\/t[\s\S]*15 minutes[\s\S]*^987654$/m);
  assert.doesNotMatch(emailVerificationMail(base).text, /\b\d{6}\b/);
});
