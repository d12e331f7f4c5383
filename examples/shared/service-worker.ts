/**
 * The service worker of the example web apps: it keeps the app shell (the page, its script and
 * styles) in Cache Storage so that the app opens with no network at all. Data never goes
 * through here: requests to the service (anything under `/api/`, anything carrying an
 * `Authorization` header) and `config.json` (which holds the dev token) are left to the
 * network, so no record and no token is ever cached by this worker.
 *
 * - Install: fetch the page and cache it with every same-origin script and stylesheet it names.
 * - Page loads: network first (a new build shows at once), the cached page when offline.
 * - Other files: from the cache when there, else from the network (and cached).
 */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', fn: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', fn: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  registration: { scope: string };
}

const worker = self as unknown as WorkerScope;
const CACHE = 'app-shell-v1';
const NETWORK_TIMEOUT_MS = 4_000;

worker.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(worker.clients.claim());
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!isShellRequest(request)) return;
  event.respondWith(request.mode === 'navigate' ? networkFirst(request) : cacheFirst(request));
});

/** Only same-origin GETs of the app's own files; never the service's data, never the config. */
function isShellRequest(request: Request): boolean {
  if (request.method !== 'GET' || request.headers.has('Authorization')) return false;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return false;
  return !url.pathname.includes('/api/') && !url.pathname.endsWith('/config.json') && !url.pathname.endsWith('/sw.js');
}

async function precache(): Promise<void> {
  const cache = await caches.open(CACHE);
  const scope = worker.registration.scope;
  const page = await fetch(scope, { cache: 'no-store' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put(scope, page);
  const files = new Set<string>();
  for (const match of html.matchAll(/(?:src|href)="([^"#?]+)"/g)) {
    const url = new URL(match[1]!, scope);
    if (url.origin === location.origin && /\.(js|css|svg|png|ico|webmanifest)$/.test(url.pathname)) files.add(url.href);
  }
  await cache.addAll([...files]);
}

async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS) });
    if (response.ok) await cache.put(worker.registration.scope, response.clone());
    return response;
  } catch {
    const cached = await cache.match(worker.registration.scope);
    return cached ?? new Response('Offline, and this app was never opened here before.', { status: 503, headers: { 'Content-Type': 'text/plain' } });
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
