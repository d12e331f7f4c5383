/**
 * Registers the service worker that keeps the app shell for offline starts. Sets
 * `data-offline-ready` on the root element once the worker controls the page's scope, so a
 * person (or a test) can tell that a reload without network will work.
 */
export async function registerOfflineShell(url = 'sw.js'): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register(new URL(url, document.baseURI));
    await navigator.serviceWorker.ready;
    document.documentElement.dataset.offlineReady = 'true';
  } catch {
    document.documentElement.dataset.offlineReady = 'false';
  }
}
