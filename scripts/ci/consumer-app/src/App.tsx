import { useEffect, useRef, useState } from 'react';
import { createMirror, isPosCloudError, type Customer, type Id, type Mirror, type MirrorOptions, type SyncStatus } from 'pos-cloud-mirror';
import { MirrorProvider, useLiveQuery, useMirror, useMirrorStatus, useRecordSyncState, useSave } from 'pos-cloud-mirror/react';

/** What an app passes to createMirror: checked against the package's own `MirrorOptions`. */
function mirrorOptions(token: string): MirrorOptions {
  return {
    baseUrl: 'https://pos.example.com/api/v1',
    token,
    userAgent: 'consumer-check/1.0 (dev@example.com)',
    collections: ['customers', 'products'],
    conflict: 'merge',
    pollIntervalMs: 60_000,
  };
}

export function App({ token }: { token: string }) {
  // The app's own mirror: the provider starts it while mounted; the app closes it.
  const [mirror] = useState<Mirror>(() => createMirror(mirrorOptions(token)));
  useEffect(() => () => void mirror.close(), [mirror]);
  return (
    <MirrorProvider mirror={mirror} onError={(error) => console.error(error)}>
      <SyncBar />
      <Customers />
    </MirrorProvider>
  );
}

/** How long ago `at` was, for a person. */
function age(at: number | undefined, now: number): string {
  if (at === undefined) return 'never';
  const minutes = Math.round((now - at) / 60_000);
  return minutes < 1 ? 'just now' : `${minutes} min ago`;
}

function SyncBar() {
  const status: SyncStatus = useMirrorStatus();
  const mirror = useMirror();
  const running = useRef<AbortController | undefined>(undefined);
  const now = Date.now();
  const waitedHours = status.oldestPendingEditAt === undefined ? 0 : (now - status.oldestPendingEditAt) / 3_600_000;
  const syncNow = async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    try {
      const report = await mirror?.syncNow({ collections: ['customers'], signal: controller.signal });
      console.info(`pulled ${report?.pulls.length ?? 0} collections`);
    } catch (error) {
      if (isPosCloudError(error)) console.warn(error.code, error.message);
      else if (!(error instanceof DOMException && error.name === 'AbortError')) throw error;
    }
  };
  return (
    <p>
      {status.phase} · {status.pendingPushes} waiting
      {waitedHours >= 2 && <strong> · the oldest change has waited {Math.floor(waitedHours)} h</strong>}
      {' · customers synced '}
      {age(status.lastPulledAt.customers, now)}
      <button onClick={() => void syncNow()}>Sync now</button>
      <button onClick={() => running.current?.abort()}>Cancel</button>
    </p>
  );
}

function Customers() {
  const [text, setText] = useState('');
  const customers: Customer[] = useLiveQuery(
    (mirror) => mirror.db.customers.filter((c) => !c._d && (c.lastname ?? '').startsWith(text)).limit(50).toArray(),
    [text],
    [],
  );
  const { save, busy, fieldErrors } = useSave('customers');
  const add = () => void save({ company: null, lastname: text, email: null });
  const note = (id: Id) => void save({ id, note_internal: 'called back' });
  // A field the schema does not name is a compile error (the field is `phone_number`).
  // @ts-expect-error -- `phone` is not a customer field
  const misspelt = () => void save({ company: null, lastname: text, email: null, phone: '1' });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <input value={text} onChange={(e) => setText(e.target.value)} aria-invalid={!!fieldErrors.lastname} />
      {fieldErrors.lastname && <span role="alert">{fieldErrors.lastname}</span>}
      <button disabled={busy}>Add</button>
      <button type="button" hidden onClick={misspelt}>
        Never shown
      </button>
      <ul>
        {customers.map((c) => (
          <li key={c.id}>
            {c.lastname ?? c.company ?? c.id} <SyncMark id={c.id} />
            <button type="button" onClick={() => note(c.id)}>
              Note a call
            </button>
          </li>
        ))}
      </ul>
    </form>
  );
}

function SyncMark({ id }: { id: Id }) {
  const sync = useRecordSyncState('customers', id);
  if (!sync || sync.state === 'in-step') return null;
  return <small title={sync.state === 'rejected' ? sync.reason : sync.state === 'conflict' ? sync.fields.join(', ') : undefined}>{sync.state}</small>;
}
