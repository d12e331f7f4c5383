import { createContext, useContext } from 'react';
import { PosCloudError } from '../errors/pos-cloud-error.js';
import type { Mirror } from '../mirror/mirror.js';

/**
 * The mirror a {@link MirrorProvider} gives the components under it: `undefined` until it exists
 * (a provider given options makes its mirror after it mounts, never while rendering on a server).
 */
export const MirrorContext = createContext<Mirror | undefined>(undefined);
MirrorContext.displayName = 'MirrorContext';

/**
 * The mirror of the nearest {@link MirrorProvider}, or `undefined` while it has none yet (the first
 * render of a provider given options, a server render, no provider at all). Components that read
 * through the other hooks need not check: they render their empty state until the mirror is there.
 */
export function useMirror(): Mirror | undefined {
  return useContext(MirrorContext);
}

/**
 * The mirror, or a `PosCloudError` saying why there is none: `what` (a hook's action) was called
 * outside a {@link MirrorProvider}, or before the provider's mirror exists.
 */
export function requireMirror(mirror: Mirror | undefined, what: string): Mirror {
  if (mirror) return mirror;
  throw new PosCloudError(`${what}: no mirror yet (the component is not under a MirrorProvider, or the provider is still making its mirror)`);
}
