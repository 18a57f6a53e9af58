import assert from 'node:assert/strict';
import { test } from 'node:test';
import Provider, { type Adapter } from 'oidc-provider';
import { useClientsByMetadata } from './stored-clients.ts';

/** A provider whose stored clients are `stored`'s objects, as lib/clients/repository.ts keeps them: the same object until changed. */
function providerOver(stored: Map<string, object>) {
  let reads = 0;
  const adapter = class implements Partial<Adapter> {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    async find(id: string) {
      reads++;
      return this.model === 'Client' ? (stored.get(id) as never) : undefined;
    }
  };
  const provider = new Provider('http://127.0.0.1:1', { adapter: adapter as never });
  useClientsByMetadata(provider, async (id) => stored.get(id));
  return { provider, reads: () => reads };
}

const metadata = (name: string) => ({ client_id: 'app', client_secret: 'secret', client_name: name, redirect_uris: ['https://app.example/cb'] });

test('a stored client is built once per version of its metadata; a changed client is built again', async () => {
  const stored = new Map<string, object>([['app', metadata('Before')]]);
  const { provider, reads } = providerOver(stored);
  const first = await provider.Client.find('app');
  assert.equal(first?.clientName, 'Before');
  const built = reads();
  assert.equal(await provider.Client.find('app'), first, 'the same metadata object: the same Client');
  assert.equal(reads(), built, "kept: the provider's own find (its read, JSON and hash) did not run again");
  stored.set('app', metadata('After'));
  const changed = await provider.Client.find('app');
  assert.equal(changed?.clientName, 'After');
  assert.notEqual(changed, first);
});

test('an unknown or malformed client_id is still the provider’s to refuse', async () => {
  const { provider } = providerOver(new Map());
  assert.equal(await provider.Client.find('nobody'), undefined);
  assert.equal(await provider.Client.find(''), undefined);
  assert.equal(await provider.Client.find(42 as never), undefined);
});
