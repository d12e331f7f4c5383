/**
 * Runs in the conformance page before the library, and changes what the browser offers as the
 * page's address asks:
 * - `no-locks`: no Web Locks, as a browser without them (`navigator.locks` is taken away);
 * - `no-storage-manager`: no `navigator.storage` (persist, estimate), as WebKitGTK offers none;
 * - `quota=<bytes>`: a storage limit, for an engine that lets no test set a real one. WebKitGTK's
 *   MiniBrowser runs automation in an ephemeral session that keeps IndexedDB in memory and refused
 *   nothing up to 1.6 GB, so there the limit is laid on IndexedDB itself, at the narrowest point:
 *   the write that goes over it fails as WebKit fails one over quota (its request and its
 *   transaction end with a `QuotaExceededError`; the transaction aborts, nothing of it is kept).
 *   What a database holds is counted from the values written to it (an update counts again, as in
 *   a log-structured store), and deleting the database gives its share back.
 */
(() => {
  const flags = new URLSearchParams(location.search);
  if (flags.has('no-locks')) delete Navigator.prototype.locks;
  if (flags.has('no-storage-manager')) delete Navigator.prototype.storage;
  const quota = Number(flags.get('quota'));
  if (quota > 0) limitStorage(quota);

  function limitStorage(limit) {
    const used = new Map();
    const total = () => [...used.values()].reduce((sum, n) => sum + n, 0);
    const sizeOf = (value) => {
      try {
        return (JSON.stringify(value) ?? '').length;
      } catch {
        return 0;
      }
    };
    const refused = new WeakSet();
    const refuse = (request, transaction) => {
      if (refused.has(transaction)) return;
      refused.add(transaction);
      const error = new DOMException('Failed to store a record: not enough space for this origin (quota exceeded)', 'QuotaExceededError');
      Object.defineProperty(request, 'error', { get: () => error, configurable: true });
      Object.defineProperty(transaction, 'error', { get: () => error, configurable: true });
      // Aborted once this task's requests are queued, as the engine fails the request it refused.
      queueMicrotask(() => {
        try {
          transaction.abort();
        } catch {
          // Already over.
        }
      });
    };
    const limitWrites = (proto, method, storeOf) => {
      const write = proto[method];
      proto[method] = function (value, ...rest) {
        const store = storeOf(this);
        const name = store.transaction.db.name;
        const size = sizeOf(value);
        const request = write.call(this, value, ...rest);
        if (refused.has(store.transaction) || total() + size > limit) refuse(request, store.transaction);
        else used.set(name, (used.get(name) ?? 0) + size);
        return request;
      };
    };
    limitWrites(IDBObjectStore.prototype, 'put', (store) => store);
    limitWrites(IDBObjectStore.prototype, 'add', (store) => store);
    limitWrites(IDBCursor.prototype, 'update', (cursor) => (cursor.source instanceof IDBIndex ? cursor.source.objectStore : cursor.source));
    const deleteDatabase = IDBFactory.prototype.deleteDatabase;
    IDBFactory.prototype.deleteDatabase = function (name) {
      used.delete(name);
      return deleteDatabase.call(this, name);
    };
  }
})();
