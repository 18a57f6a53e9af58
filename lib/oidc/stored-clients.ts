/**
 * oidc-provider finds a stored client by reading its metadata through the
 * adapter, then looks the Client it built from that metadata up by a SHA-256
 * of the metadata's JSON (`Client.find` in oidc-provider's lib/models/client.js):
 * a JSON.stringify and a hash on every request that authenticates a client or
 * checks a token's. The adapter hands out the same metadata object until the
 * client changes (lib/clients/repository.ts keeps it), so here the Client built from an
 * object is kept by that object, and a changed client, a new object, is built
 * afresh by the provider as before.
 */
import type Provider from 'oidc-provider';

type Find = (id: unknown) => Promise<unknown>;

export function useClientsByMetadata(provider: Provider, metadataOf: (clientId: string) => Promise<object | undefined>): void {
  const Client = provider.Client as unknown as { find: Find };
  const find: Find = Client.find.bind(Client);
  const built = new WeakMap<object, unknown>();
  Client.find = async (id) => {
    if (typeof id !== 'string' || !id) return find(id);
    const metadata = await metadataOf(id);
    const kept = metadata && built.get(metadata);
    if (kept) return kept;
    const client = await find(id);
    // Kept only when the provider built it from this very object: a client changed meanwhile is built again next time.
    if (metadata && client && (await metadataOf(id)) === metadata) built.set(metadata, client);
    return client;
  };
}
