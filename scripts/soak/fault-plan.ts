/**
 * The fault plan: the phases a soak run switches between (a `faults` operation picks the next),
 * each a setting of the simulator's fault knobs. The token's revocation is an operation of its
 * own (`revoke-token`). At the end every fault goes off before the devices settle.
 */
import type { FaultOptions } from '../../src/simulator/index.js';

/** One phase of the fault plan. */
export interface FaultPhase {
  name: string;
  faults: FaultOptions;
}

/** The phases; the first is no fault at all. */
export const FAULT_PHASES: readonly FaultPhase[] = [
  { name: 'none', faults: {} },
  { name: '500s', faults: { errorRate: 0.15 } },
  // Half of these carry `Retry-After: 1`, half none.
  { name: 'random 429s', faults: { extra429Rate: 0.08 } },
  // A token bucket: 429 with `Retry-After` once the burst is spent.
  { name: 'rate limit', faults: { rateLimitPerSecond: 60, rateLimitBurst: 30 } },
  // The server applies the request (a POST lands), then drops the connection unanswered.
  { name: 'dropped connections', faults: { dropRate: 0.1 } },
  { name: 'truncated bodies', faults: { truncateRate: 0.1 } },
  { name: 'latency', faults: { latencyMs: 30 } },
  { name: 'all at once', faults: { errorRate: 0.05, extra429Rate: 0.02, dropRate: 0.05, truncateRate: 0.05, latencyMs: 10 } },
];
