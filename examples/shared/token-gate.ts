import { createClient, PosCloudError, type Client, type SyncClient } from 'pos-cloud-mirror';

/** The client an example app hands to `createMirror`: it holds the token once one is known. */
export type GatedClient = SyncClient & {
  setToken(token: string): void;
  /** True once a token was given. */
  readonly hasToken: boolean;
  /** The warehouse stock report (inventory count). */
  warehouseStatus: Client['warehouseStatus'];
};

/**
 * A client that exists before its token does. The app opens its mirror at once (local data and
 * offline edits need no token) and syncing starts when `mirror.setToken(token)` passes the token
 * here: the real `createClient` is made then. Until then every request fails with a
 * `PosCloudError` saying that no token was given.
 */
export function createTokenGate(options: { baseUrl: string; userAgent: string }): GatedClient {
  let client: Client | undefined;

  function real(what: string): Client {
    if (!client) throw new PosCloudError(`${what}: no API token given yet; connect to sync`);
    return client;
  }

  /** The real client seen as the sync engine sees it (its pages are typed per collection; the engine's are not). */
  const sync = (what: string): SyncClient => real(what) as unknown as SyncClient;

  const gate: GatedClient = {
    get hasToken() {
      return client !== undefined;
    },
    setToken(token) {
      if (client) client.setToken(token);
      else client = createClient({ baseUrl: options.baseUrl, token, userAgent: options.userAgent });
    },
    pages: (collection, query) => sync(`GET ${collection}`).pages(collection, query),
    list: (collection, query) => sync(`GET ${collection}`).list(collection, query),
    categories: (o) => sync('GET categories').categories(o),
    latestOrders: (id, q) => sync('GET orders/latest').latestOrders(id, q),
    save: (collection, body, o) => sync(`POST ${collection}`).save(collection, body, o),
    warehouseStatus: async (body, o) => real('POST reports/generic/warehouse_status').warehouseStatus(body, o),
  };
  return gate;
}
