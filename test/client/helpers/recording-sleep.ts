import type { Sleep } from '../../../src/client/index.js';

/** A sleep that returns at once and records every delay asked for, honouring aborts like the real one. */
export function recordingSleep(): { sleep: Sleep; delays: number[] } {
  const delays: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    delays.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
  return { sleep, delays };
}
