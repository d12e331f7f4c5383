import type { Mirror } from '../mirror/mirror.js';

/** How many mounted providers want each mirror running. */
const holders = new WeakMap<Mirror, number>();

/**
 * Asks for `mirror` to run for as long as the returned function is not called: the first holder
 * starts it, the last one to let go stops it. Two providers given one mirror share it, and a
 * StrictMode mount-unmount-mount starts, stops and starts again, which the mirror settles as
 * started (a `start()` during a `stop()` waits for that stop, then starts).
 */
export function holdRunning(mirror: Mirror, onError: (error: unknown) => void): () => void {
  const count = holders.get(mirror) ?? 0;
  holders.set(mirror, count + 1);
  if (count === 0) mirror.start().catch(onError);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (holders.get(mirror) ?? 1) - 1;
    holders.set(mirror, left);
    if (left === 0) mirror.stop().catch(onError);
  };
}
