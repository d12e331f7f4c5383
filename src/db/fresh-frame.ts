/**
 * A fresh IndexedDB factory of the page's own origin: the `indexedDB` of a hidden, blank iframe
 * made for it. WebKit keeps a page's IndexedDB unusable once the process that served it died
 * (every open fails with "Connection to Indexed Database server lost. Refresh the page to try
 * again"), but a frame made after that reaches the new process: the same databases, the same data.
 * The frame stays in the document while the database uses it; `release` takes it out.
 *
 * `undefined` where there is no document (a worker, Node).
 */
export function freshFrameIndexedDb(): { indexedDB: IDBFactory; release(): void } | undefined {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc?.documentElement) return undefined;
  const frame = doc.createElement('iframe');
  frame.hidden = true;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  doc.documentElement.append(frame);
  const factory = (frame.contentWindow as (Window & typeof globalThis) | null)?.indexedDB;
  if (!factory) {
    frame.remove();
    return undefined;
  }
  return { indexedDB: factory, release: () => frame.remove() };
}
