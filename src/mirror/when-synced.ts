import { PosCloudError, ValidationError } from '../errors/index.js';
import type { ReadonlyObservableValue, Subscription } from './observable-value.js';
import type { SyncStatus } from './status.js';

/**
 * Resolves once `status.groups[group].initialDone` holds: at once when it already does. Rejects
 * with a `ValidationError` for a group the status does not name, with `signal.reason` when
 * `signal` aborts, and with a `PosCloudError` when the status ends (the mirror closed) first.
 */
export async function whenGroupSynced(status: ReadonlyObservableValue<SyncStatus>, group: string, signal?: AbortSignal): Promise<void> {
  if (!Object.hasOwn(status.value.groups, group)) throw unknownSyncGroup('whenSynced', status.value, group);
  signal?.throwIfAborted();
  await new Promise<void>((resolve, reject) => {
    const wait: { settled: boolean; subscription?: Subscription } = { settled: false };
    const settle = (outcome: () => void) => {
      if (wait.settled) return;
      wait.settled = true;
      wait.subscription?.unsubscribe();
      signal?.removeEventListener('abort', aborted);
      outcome();
    };
    // The caller's reason, as the mirror's other calls end on an abort (an AbortError unless the app gave another).
    const aborted = () => settle(() => reject(signal?.reason as Error));
    signal?.addEventListener('abort', aborted, { once: true });
    wait.subscription = status.subscribe({
      next: (value) => {
        if (value.groups[group]?.initialDone === true) settle(resolve);
      },
      complete: () => settle(() => reject(new PosCloudError(`whenSynced: the mirror was closed before sync group ${JSON.stringify(group)} completed its first sync`))),
    });
    // The current value is told during subscribe, before the subscription is returned: one that settled it ends here.
    if (wait.settled) wait.subscription.unsubscribe();
  });
}

/** The `ValidationError` of `what` (a method, a hook) asked for a group `status` does not name, naming those it does. */
export function unknownSyncGroup(what: string, status: SyncStatus, group: string): ValidationError {
  const message = `unknown sync group ${JSON.stringify(group)}; known: ${Object.keys(status.groups).join(', ')}`;
  return new ValidationError(`${what}: ${message}`, { issues: [{ path: ['group'], message }] });
}
