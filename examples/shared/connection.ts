/**
 * Where an example app finds its service: base URL and token.
 *
 * - The dev servers of the examples (`npm start`, `npm run example:inventory`) serve
 *   `config.json` with the simulator's base URL, token and a run id (`tenant`), so the app
 *   connects by itself.
 * - Otherwise the app asks for them in a form; `?base=<url>` in the address pre-fills the URL.
 *
 * The token lives in memory only: it is never written to localStorage, IndexedDB or a cache.
 * The base URL and tenant (not secret) are remembered in localStorage, so that a reload with no
 * network opens the same local database and shows its data; syncing resumes once a token is known
 * again. The settings screen says so and lets the person turn it off ({@link setRememberAddress}).
 */
export interface Connection {
  /** Absolute base URL of the service (`{base_url}`). */
  baseUrl: string;
  /** Keeps the data of different accounts or simulator runs in different databases. */
  tenant: string | undefined;
}

/** A connection with its token, as `config.json` or the form gives it. */
export interface ConnectionWithToken extends Connection {
  token: string;
}

const STORAGE_KEY = 'pos-cloud-mirror-example:connection';
/** Set to `no` when the person chose not to have the address remembered on this device. */
const REMEMBER_KEY = 'pos-cloud-mirror-example:remember-address';

/** What the dev server's `config.json` says: the service's address, and the token when it hands one out. */
export interface ServedConnection extends Connection {
  token: string | undefined;
}

/**
 * Reads the dev server's `config.json`; undefined when there is none or the network is down.
 * `npm start -- --base-url URL` serves the address of a real service without a token: the app
 * then asks for the token.
 */
export async function fetchServedConnection(timeoutMs = 3_000): Promise<ServedConnection | undefined> {
  try {
    const response = await fetch(new URL('config.json', document.baseURI), {
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { baseUrl?: unknown; token?: unknown; tenant?: unknown };
    if (typeof body.baseUrl !== 'string') return undefined;
    return {
      baseUrl: absoluteBaseUrl(body.baseUrl),
      token: typeof body.token === 'string' ? body.token : undefined,
      tenant: typeof body.tenant === 'string' ? body.tenant : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The connection used last time on this device (no token), if any. */
export function rememberedConnection(): Connection | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const value = JSON.parse(raw) as { baseUrl?: unknown; tenant?: unknown };
    if (typeof value.baseUrl !== 'string') return undefined;
    return { baseUrl: value.baseUrl, tenant: typeof value.tenant === 'string' ? value.tenant : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Remembers base URL and tenant for the next start, unless the person chose not to have the address
 * remembered ({@link setRememberAddress}). The token is deliberately left out.
 */
export function rememberConnection(connection: Connection): void {
  if (!remembersAddress()) return;
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: connection.baseUrl, tenant: connection.tenant }));
}

/** True unless the person chose not to have the address remembered on this device. */
export function remembersAddress(): boolean {
  return localStorage.getItem(REMEMBER_KEY) !== 'no';
}

/**
 * Whether the address is remembered on this device. Turning it off forgets the remembered one at
 * once; turning it on remembers `connection` (the one in use).
 */
export function setRememberAddress(remember: boolean, connection: Connection): void {
  if (remember) {
    localStorage.removeItem(REMEMBER_KEY);
    rememberConnection(connection);
  } else {
    localStorage.setItem(REMEMBER_KEY, 'no');
    localStorage.removeItem(STORAGE_KEY);
  }
}

/** The base URL given as `?base=` in the page address, if any. */
export function baseUrlFromQuery(): string | undefined {
  const base = new URLSearchParams(location.search).get('base');
  return base ? absoluteBaseUrl(base) : undefined;
}

/** A base URL as typed or served (maybe relative to the page), made absolute, without trailing slashes. */
export function absoluteBaseUrl(url: string): string {
  return new URL(url, location.href).href.replace(/\/+$/, '');
}
