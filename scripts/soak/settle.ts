/**
 * The end of a soak run: faults off, every device given the current token, then rounds in which
 * each device syncs and resolves its conflicts for the server (as a user who keeps what the
 * registers did), until no outbox holds anything; then one more sync each, so that every device
 * has read the others' last pushes. The registers have stopped by then.
 */
import type { Simulator } from '../../src/simulator/index.js';
import type { Device } from './device.js';
import type { DeviceEdits } from './device-edits.js';

/** Most rounds of syncs before giving up (what is left is then reported as stuck). */
export const SETTLE_ROUNDS = 20;

/** How settling went. */
export interface SettleOutcome {
  /** Rounds it took until every outbox was empty (SETTLE_ROUNDS when it never was). */
  rounds: number;
  /** Conflicts resolved for the server while settling. */
  conflictsResolved: number;
}

/** Settles every device (see the file's comment). `step` is the step the ledger notes resolutions at. */
export async function settle(sim: Simulator, devices: readonly { device: Device; edits: DeviceEdits }[], step: number): Promise<SettleOutcome> {
  sim.setFaults({});
  for (const { device } of devices) if (!device.hasCurrentToken) device.giveToken();
  let conflictsResolved = 0;
  let rounds = 0;
  while (rounds < SETTLE_ROUNDS) {
    rounds++;
    let failed = false;
    for (const { device, edits } of devices) {
      if (!(await device.sync())) failed = true;
      for (const row of await edits.noteConflicts(step)) {
        await edits.resolveRow(step, row, 'server');
        conflictsResolved++;
      }
    }
    const left = await Promise.all(devices.map(async ({ device }) => (await device.mirror.pending()).length));
    if (!failed && left.every((n) => n === 0)) break;
  }
  // Nothing is pushed any more: one more sync each reads the final state of the server.
  for (const { device } of devices) {
    for (let attempt = 0; attempt < 3 && !(await device.sync()); attempt++);
  }
  return { rounds, conflictsResolved };
}
