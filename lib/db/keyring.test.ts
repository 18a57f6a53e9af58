import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { decodeSecretsKey } from '../config/env.ts';
import { keyFilePath, keyringFor, keyringOf } from './keyring.ts';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-keyring-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('keyring', () => {
  test('a sealed value opens with its context and holds no trace of the plaintext', () => {
    const keyring = keyringOf([randomBytes(32)]);
    const sealed = keyring.seal('cookie-key-1,cookie-key-2', 'server_secrets:cookie_keys');
    assert.ok(!sealed.includes('cookie-key'));
    assert.notEqual(keyring.seal('same', 'x'), keyring.seal('same', 'x'), 'a fresh IV every time');
    assert.equal(keyring.open(sealed, 'server_secrets:cookie_keys'), 'cookie-key-1,cookie-key-2');
    assert.ok(keyring.isCurrent(sealed));
  });

  test('a value moved to another row, altered, or in clear does not open', () => {
    const keyring = keyringOf([randomBytes(32)]);
    const sealed = keyring.seal('secret', 'server_secrets:portal_client_secret');
    assert.throws(() => keyring.open(sealed, 'server_secrets:portal_session_secret'), /does not decrypt/);
    const [v, id, iv, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    assert.throws(() => keyring.open([v, id, iv, flipped.toString('base64url')].join('.'), 'server_secrets:portal_client_secret'), /does not decrypt/);
    assert.throws(() => keyring.open('plain-text-secret', 'server_secrets:x'), /not encrypted/);
    assert.equal(keyring.isCurrent('plain-text-secret'), false);
  });

  test('rotation: the first key seals, every key opens, and only the first is current', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const sealedOld = keyringOf([oldKey]).seal('secret', 'ctx');
    const rotated = keyringOf([newKey, oldKey]);
    assert.equal(rotated.open(sealedOld, 'ctx'), 'secret');
    assert.equal(rotated.isCurrent(sealedOld), false);
    assert.equal(rotated.isCurrent(rotated.seal('secret', 'ctx')), true);
    assert.throws(() => keyringOf([newKey]).open(sealedOld, 'ctx'), /not among SECRETS_KEY's keys/);
  });

  test('SQLite without SECRETS_KEY: a key file beside the database, mode 0600, the same key on every open', () => {
    const url = `file:${join(dir, 'a', 'gatehouse.db')}`;
    const sealed = keyringFor(url, []).seal('secret', 'ctx');
    const file = keyFilePath(join(dir, 'a', 'gatehouse.db'));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(decodeSecretsKey(readFileSync(file, 'utf8').trim()));
    assert.equal(keyringFor(url, []).open(sealed, 'ctx'), 'secret');
  });

  test('SQLite with SECRETS_KEY: no key file is made, and an existing one still opens what it sealed', () => {
    const configured = randomBytes(32);
    keyringFor(`file:${join(dir, 'b.db')}`, [configured]);
    assert.throws(() => statSync(keyFilePath(join(dir, 'b.db'))), /ENOENT/);
    const url = `file:${join(dir, 'c.db')}`;
    const sealedByFile = keyringFor(url, []).seal('secret', 'ctx');
    const moved = keyringFor(url, [configured]);
    assert.equal(moved.open(sealedByFile, 'ctx'), 'secret');
    assert.equal(moved.isCurrent(sealedByFile), false, 'SECRETS_KEY seals from now on');
  });

  test('a broken key file or PostgreSQL without SECRETS_KEY stop with a clear message', () => {
    writeFileSync(keyFilePath(join(dir, 'd.db')), 'not a key\n');
    assert.throws(() => keyringFor(`file:${join(dir, 'd.db')}`, []), /does not hold a 32-byte key/);
    assert.throws(() => keyringFor('postgresql://localhost/x', []), /SECRETS_KEY is required with PostgreSQL/);
  });

  test('SECRETS_KEY accepts 32 bytes as base64, base64url or hex, and nothing else', () => {
    const key = randomBytes(32);
    for (const text of [key.toString('base64'), key.toString('base64url'), key.toString('hex')]) assert.deepEqual(decodeSecretsKey(text), key);
    for (const text of ['', 'short', randomBytes(16).toString('base64'), randomBytes(33).toString('hex'), 'correct horse battery staple correct horse b']) {
      assert.equal(decodeSecretsKey(text), undefined, text);
    }
  });
});
