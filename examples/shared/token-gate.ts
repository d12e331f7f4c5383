import { createClient, PosCloudError, type SyncClient } from './library.js';

/** The client an example app hands to `createMirror`: it holds the token once one is known. */
export type GatedClient = SyncClient & {
  setToken(token: string): void;
  /** True once a token was given. */
  readonly hasToken: boolean;
  /** The warehouse stock report (inventory count). */
  warehouseStatus(body: { id_warehouse: string }, options?: { signal?: AbortSignal }): Promise<{ data: Record<string, unknown>[]; source: string }>;
};

type RealClient = ReturnType<typeof createClient>;

/**
 * A client that exists before its token does. The app opens its mirror at once (local data and
 * offline edits need no token) and syncing starts when `mirror.setToken(token)` passes the token
 * here: the real `createClient` is made then. Until then every request fails with a
 * `PosCloudError` saying that no token was given.
 */
export function createTokenGate(options: { baseUrl: string; userAgent: string }): GatedClient {
  let client: RealClient | undefined;

  function real(what: string): RealClient {
    if (!client) throw new PosCloudError(`${what}: no API token given yet; connect to sync`);
    return client;
  }

  const gate: GatedClient = {
    get hasToken() {
      return client !== undefined;
    },
    setToken(token) {
      if (client) client.setToken(token);
      else client = createClient({ baseUrl: options.baseUrl, token, userAgent: options.userAgent });
    },
    pages: (collection, query) => (real(`GET ${collection}`) as unknown as SyncClient).pages(collection, query),
    list: (collection, query) => (real(`GET ${collection}`) as unknown as SyncClient).list(collection, query),
    categories: (o) => (real('GET categories') as unknown as SyncClient).categories(o),
    latestOrders: (id, q) => (real('GET orders/latest') as unknown as SyncClient).latestOrders(id, q),
    save: (collection, body, o) => (real(`POST ${collection}`) as unknown as SyncClient).save(collection, body, o),
    warehouseStatus: async (body, o) =>
      (await real('POST reports/generic/warehouse_status').warehouseStatus(body, o)) as unknown as { data: Record<string, unknown>[]; source: string },
  };
  return gate;
}
