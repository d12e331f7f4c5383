import { createElement, useEffect, useRef, useState, type ReactNode } from 'react';
import { createMirror } from '../mirror/create-mirror.js';
import type { Mirror } from '../mirror/mirror.js';
import type { MirrorOptions } from '../mirror/options.js';
import { MirrorContext } from './mirror-context.js';
import { holdRunning } from './mirror-lease.js';

interface ProviderCommon {
  /**
   * Start the mirror while the provider is mounted (default true): it campaigns for leadership
   * and syncs on its schedule, and stops when the last provider holding it unmounts. False only
   * provides it; the app starts and stops it.
   */
  start?: boolean;
  /**
   * Where a failed `start()`, `stop()` or `close()` is told (default: the runtime's `reportError`,
   * else `console.error`). Sync failures do not come here: they are in `useMirrorStatus()`.
   */
  onError?: (error: unknown) => void;
  children?: ReactNode;
}

/** The props of {@link MirrorProvider}: a mirror the app made, or the options to make one. */
export type MirrorProviderProps =
  | (ProviderCommon & {
      /** A mirror the app made (and closes): the provider starts and stops it, never closes it. */
      mirror: Mirror;
      options?: never;
    })
  | (ProviderCommon & {
      /**
       * The options of a mirror the provider makes after it mounts and closes after it unmounts.
       * Read once, when the provider mounts: to start over with other options (another token
       * source, another database), give the provider a new React `key`.
       */
      options: MirrorOptions;
      mirror?: never;
    });

/** A mirror the provider made, and the close it has scheduled should it not be mounted again. */
interface OwnedMirror {
  mirror: Mirror;
  closing: ReturnType<typeof setTimeout> | undefined;
}

function reportError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error('pos-cloud-mirror/react:', error);
}

/**
 * Gives a mirror to the components under it ({@link useMirror} and the other hooks), started while
 * mounted. Safe under StrictMode's mount-unmount-mount (a mirror it made is kept, not made twice),
 * and two providers may share one mirror (it runs while either is mounted). It closes a mirror only
 * when it made it. Nothing is made while rendering, so a server render shows the empty state.
 *
 * ```tsx
 * <MirrorProvider options={{ client, collections: ['products', 'customers'] }}>
 *   <App />
 * </MirrorProvider>
 * ```
 */
export function MirrorProvider(props: MirrorProviderProps): ReactNode {
  const { mirror: given, start = true, children } = props;
  const onError = useRef(props.onError ?? reportError);
  onError.current = props.onError ?? reportError;
  const firstOptions = useRef(props.options);
  const owned = useRef<OwnedMirror | undefined>(undefined);
  const [made, setMade] = useState<Mirror | undefined>(undefined);

  useEffect(() => {
    if (given || !firstOptions.current) return undefined;
    let entry = owned.current;
    if (entry?.closing !== undefined) {
      // Mounted again at once (StrictMode): the mirror stays.
      clearTimeout(entry.closing);
      entry.closing = undefined;
    }
    if (!entry) {
      entry = { mirror: createMirror(firstOptions.current), closing: undefined };
      owned.current = entry;
    }
    const current = entry;
    setMade(current.mirror);
    return () => {
      current.closing = setTimeout(() => {
        if (owned.current === current) owned.current = undefined;
        current.mirror.close().catch((error: unknown) => onError.current(error));
      }, 0);
    };
    // The options are read once (see MirrorProviderProps).
  }, [given]);

  const mirror = given ?? made;
  useEffect(() => {
    if (!mirror || !start) return undefined;
    return holdRunning(mirror, (error) => onError.current(error));
  }, [mirror, start]);

  return createElement(MirrorContext.Provider, { value: mirror }, children);
}
