import { renderConnectForm } from './connect-form.js';
import {
  baseUrlFromQuery,
  fetchServedConnection,
  rememberConnection,
  rememberedConnection,
  type Connection,
  type ConnectionWithToken,
} from './connection.js';
import { replace } from './dom.js';
import { createMirror, type CollectionName, type ExtraIndexes, type Mirror } from 'pos-cloud-mirror';
import { createTokenGate, type GatedClient } from './token-gate.js';

/** A started example app: its mirror and the client behind it. */
export interface BootedApp {
  mirror: Mirror;
  client: GatedClient;
  /** Where this mirror syncs from. */
  connection: Connection;
  /** Stops asking for a token and closes the mirror (before connecting elsewhere). */
  close(): Promise<void>;
}

/** Options of {@link bootMirror}. */
export interface BootOptions {
  /** Where the connect form goes when one is needed. */
  connectEl: HTMLElement;
  /** Identification of the app, sent as User-Agent (spec: Conventions 7). */
  userAgent: string;
  /** Collections this app mirrors. @default all */
  collections?: CollectionName[];
  /** Delay between delta syncs (ms). */
  pollIntervalMs: number;
  /** Indexes this app queries by, beyond the mirror's defaults (`MirrorOptions.indexes`). @default none */
  indexes?: ExtraIndexes;
  /**
   * A connection the person chose in the app (its settings): used instead of the address in the
   * page's `?base=`, the dev server's or the remembered one; with its token, the app does not ask.
   */
  connection?: Connection & { token?: string | undefined };
  /**
   * Starts syncing once a token is known (default `mirror.start()`). A React app passes a function
   * that lets its `MirrorProvider` start the mirror instead.
   */
  startSync?: (mirror: Mirror) => void | Promise<void>;
}

/**
 * Opens the app's mirror, then connects it when a token is known.
 *
 * 1. The connection comes from `options.connection`, else `?base=`, else the dev server's
 *    `config.json`, else the one remembered on this device, else a form.
 * 2. The mirror opens at once, so local data shows and offline edits work before (and without)
 *    any network.
 * 3. Syncing starts once the token is known: from `options.connection` or `config.json`, or typed
 *    into the form. After a reload without network the token is gone (it is kept in memory only);
 *    the app keeps asking `config.json` while online, and shows the form, until it has one.
 * 4. A token the service refuses pauses the sync (`auth-error`) and brings the form back; the
 *    new token resumes it (`mirror.setToken`).
 */
export async function bootMirror(options: BootOptions): Promise<BootedApp> {
  const chosen = options.connection;
  const queryBase = chosen ? undefined : baseUrlFromQuery();
  const served = chosen || queryBase !== undefined ? undefined : await fetchServedConnection();
  let connection: Connection | undefined =
    chosen ?? (queryBase !== undefined ? { baseUrl: queryBase, tenant: undefined } : served ?? rememberedConnection());
  let token = chosen ? chosen.token : served && connection && served.baseUrl === connection.baseUrl ? served.token : undefined;

  if (!connection) {
    const typed = await askForConnection(options.connectEl, 'Connect to your point-of-sale cloud.');
    connection = { baseUrl: typed.baseUrl, tenant: undefined };
    token = typed.token;
  }
  rememberConnection(connection);
  const current = connection;

  const client = createTokenGate({ baseUrl: connection.baseUrl, userAgent: options.userAgent });
  const mirror = createMirror({
    client,
    baseUrl: connection.baseUrl,
    ...(connection.tenant !== undefined ? { tenant: connection.tenant } : {}),
    ...(options.collections ? { collections: options.collections } : {}),
    ...(options.indexes ? { indexes: options.indexes } : {}),
    pollIntervalMs: options.pollIntervalMs,
  });

  const base = connection.baseUrl;
  let started = false;
  let asking = false;
  /** Gives the mirror a token (the first one, or one replacing a refused one) and starts syncing. */
  const connect = async (value: string) => {
    replace(options.connectEl);
    asking = false;
    mirror.setToken(value);
    if (started) return;
    started = true;
    await (options.startSync ?? ((m: Mirror) => m.start()))(mirror);
  };
  /** Shows the form that asks for a token for this base URL, saying why. */
  const askForToken = (reason: string) =>
    renderConnectForm(options.connectEl, { baseUrl: base, reason, onConnect: (_url, value) => void connect(value) });
  // A refused token (mistyped, or replaced on the service): sync waits, the form asks for another.
  const status = mirror.status.subscribe((s) => {
    if (s.phase !== 'auth-error' || asking) return;
    asking = true;
    askForToken('The service refused the API token. Enter a valid one to sync.');
  });

  let timer: ReturnType<typeof setInterval> | undefined;
  const retry = async () => {
    if (client.hasToken || !navigator.onLine) return;
    const again = await fetchServedConnection();
    if (again?.token !== undefined && again.baseUrl === base && !client.hasToken) await connect(again.token);
  };
  const onOnline = () => void retry();
  if (token !== undefined) {
    await connect(token);
  } else {
    askForToken('Showing the data on this device. Enter the API token to sync.');
    // The dev servers hand out the token; ask them again whenever the network may be back.
    window.addEventListener('online', onOnline);
    timer = setInterval(() => {
      if (client.hasToken) clearInterval(timer);
      else void retry();
    }, 3_000);
  }
  return {
    mirror,
    client,
    connection: current,
    async close() {
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
      status.unsubscribe();
      replace(options.connectEl);
      await mirror.close();
    },
  };
}

/** Asks for base URL and token in the connect form. */
function askForConnection(el: HTMLElement, reason: string): Promise<ConnectionWithToken> {
  return new Promise((resolve) => {
    renderConnectForm(el, { baseUrl: undefined, reason, onConnect: (url, token) => resolve({ baseUrl: url, token, tenant: undefined }) });
  });
}
