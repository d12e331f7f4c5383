/**
 * One soak run: a simulator over HTTP on 127.0.0.1, `devices` mirrors each on its own database,
 * the seeded operations until the time is up (one at a time, each awaited, while the registers
 * sell on a timer), then settling and the checks. Returns the figures and what the checks found.
 *
 * Operations run one at a time because the service has no conditional write: a POST replaces
 * the whole record, so any write landing between a device's pull before its push and that push
 * (another device's push, a register's edit) would be overwritten, whatever the client does.
 * Sales, which only create records, run meanwhile.
 */
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import { createSimulator, type FaultCounts } from '../../src/simulator/index.js';
import { checkSoak, type AnyRecord, type CheckResult, type DeviceState, type SoakState } from './checks.js';
import { Device, type DeviceCounts } from './device.js';
import { DeviceEdits, type EditOutcome } from './device-edits.js';
import { FAULT_PHASES } from './fault-plan.js';
import { Ledger } from './ledger.js';
import { operations, type Operation, type OperationKind, type RestartPoint } from './operations.js';
import type { SoakOptions } from './options.js';
import { Registers, type RegisterCounts } from './registers.js';
import { settle, type SettleOutcome } from './settle.js';

/** Sales a second while operations run. */
const SALES_PER_SECOND = 1;

/** What a run did and what the checks found. */
export interface SoakResult {
  options: SoakOptions;
  elapsedMs: number;
  /** Operations issued, by kind, and how many found nothing to act on. */
  operations: { total: number; byKind: Partial<Record<OperationKind, number>>; nothingToDo: number };
  /** Operations that threw where they should not have (a `save()` refused, ...). */
  operationErrors: string[];
  faults: FaultCounts & { phases: number; tokenRevocations: number };
  restarts: Record<RestartPoint, { hit: number; missed: number }>;
  devices: DeviceCounts[];
  registers: RegisterCounts;
  requests: number;
  creates: number;
  conflicts: { noted: number; resolvedLocal: number; resolvedServer: number };
  settle: SettleOutcome;
  check: CheckResult;
  /** What the checks looked at, when asked for (`keepState`): a test may alter it and check again. */
  state?: SoakState;
}

/** Options of {@link runSoak} beyond the command line's. */
export interface RunHooks {
  /** Told every 10 s how far the run got. */
  progress?: (line: string) => void;
  /** Keep what the checks looked at in the result (`state`). */
  keepState?: boolean;
  /**
   * Issue at least this many operations, however long they take (default 0): a test's short run
   * does enough work on a machine too loaded to do it within its minutes.
   */
  minOperations?: number;
}

/** Runs a soak (see the file's comment). */
export async function runSoak(options: SoakOptions, hooks: RunHooks = {}): Promise<SoakResult> {
  const { progress } = hooks;
  const rejections: string[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason));
  process.on('unhandledRejection', onRejection);
  const started = performance.now();
  const sim = await createSimulator({ seed: options.seed, size: 'tiny', logSize: 100 });
  const ledger = new Ledger();
  const registers = new Registers(sim, ledger);
  const devices = Array.from({ length: options.devices }, (_, i) => {
    const device = new Device(sim, i + 1);
    return { device, edits: new DeviceEdits(() => device.mirror, device.writer, ledger) };
  });
  const initialCounts = Object.fromEntries(COLLECTIONS.map((c) => [c, sim.store.count(c)])) as Record<CollectionName, number>;
  const result = {
    byKind: {} as Partial<Record<OperationKind, number>>,
    nothingToDo: 0,
    operationErrors: [] as string[],
    phases: 0,
    tokenRevocations: 0,
    restarts: { 'mid-pull': { hit: 0, missed: 0 }, 'before-post': { hit: 0, missed: 0 }, 'after-post': { hit: 0, missed: 0 }, random: { hit: 0, missed: 0 } },
  };
  let step = 0;
  try {
    for (const { device } of devices) await device.sync();
    registers.startSelling(SALES_PER_SECOND);
    const deadline = started + options.minutes * 60_000;
    let nextProgress = performance.now() + 10_000;
    const stream = operations(options.seed, options.devices);
    for (let issued = 0; performance.now() < deadline || issued < (hooks.minOperations ?? 0); issued++) {
      const op = stream.next().value;
      step++;
      result.byKind[op.kind] = (result.byKind[op.kind] ?? 0) + 1;
      try {
        if ((await perform(op)) === 'nothing-to-do') result.nothingToDo++;
      } catch (error) {
        result.operationErrors.push(`step ${step} ${JSON.stringify(op)}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      }
      if (performance.now() > nextProgress) {
        nextProgress += 10_000;
        progress?.(`${Math.round((performance.now() - started) / 1000)} s: ${step} operations, ${sim.requests.count()} requests, ${sim.store.count('orders') - initialCounts.orders} new orders`);
      }
    }
    registers.stopSelling();
    const settled = await settle(sim, devices, ++step);
    const state: DeviceState[] = [];
    for (const { device } of devices) {
      const records = {} as Record<CollectionName, AnyRecord[]>;
      for (const c of COLLECTIONS) records[c] = await device.mirror.db.table(c).toArray();
      state.push({ writer: device.writer, records, outbox: await device.mirror.pending(), orphanedCreates: device.mirror.status.value.orphanedCreates });
    }
    const server = Object.fromEntries(COLLECTIONS.map((c) => [c, sim.store.list(c)])) as Record<CollectionName, AnyRecord[]>;
    // Let a rejection still on its way (a microtask or a timer late) reach the listener.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const checked: SoakState = { server, initialCounts, devices: state, ledger, unhandledRejections: rejections, operationErrors: result.operationErrors };
    const check = checkSoak(checked);
    return {
      options,
      elapsedMs: performance.now() - started,
      operations: { total: step - 1, byKind: result.byKind, nothingToDo: result.nothingToDo },
      operationErrors: result.operationErrors,
      faults: { ...sim.requests.faultCounts(), phases: result.phases, tokenRevocations: result.tokenRevocations },
      restarts: result.restarts,
      devices: devices.map(({ device }) => device.counts),
      registers: registers.counts,
      requests: sim.requests.count(),
      creates: ledger.creates.length,
      conflicts: {
        noted: ledger.conflicts.length,
        resolvedLocal: ledger.conflicts.filter((c) => c.resolved?.choice === 'local').length,
        resolvedServer: ledger.conflicts.filter((c) => c.resolved?.choice === 'server').length,
      },
      settle: settled,
      check,
      ...(hooks.keepState ? { state: checked } : {}),
    };
  } finally {
    registers.stopSelling();
    for (const { device } of devices) await device.close().catch(() => undefined);
    await sim.close();
    process.off('unhandledRejection', onRejection);
  }

  async function perform(op: Operation): Promise<EditOutcome> {
    switch (op.kind) {
      case 'edit':
        return at(op.device).edits.edit(step, op.collection, op.field, op.hot, op.pick);
      case 'create':
        return at(op.device).edits.create(step, op.what, op.pick);
      case 'remove':
        return at(op.device).edits.remove(step, op.collection, op.pick);
      case 'sync': {
        const { device, edits } = at(op.device);
        await device.sync();
        await edits.noteConflicts(step);
        return 'done';
      }
      case 'start-stop': {
        const { device, edits } = at(op.device);
        if (!(await device.startAndStop())) throw new Error(`${device.writer}: the run started by start() did not end within 20 s`);
        await edits.noteConflicts(step);
        return 'done';
      }
      case 'sweep': {
        const { device } = at(op.device);
        await (op.full ? device.mirror.resync() : device.mirror.reconcile()).catch(() => undefined);
        return 'done';
      }
      case 'restart': {
        const { device, edits } = at(op.device);
        result.restarts[op.point][await device.restart(op.point, op.after)]++;
        await edits.noteConflicts(step);
        return 'done';
      }
      case 'resolve':
        return at(op.device).edits.resolve(step, op.pick, op.choice);
      case 'give-token': {
        const { device } = at(op.device);
        if (device.hasCurrentToken) return 'nothing-to-do';
        device.giveToken();
        return 'done';
      }
      case 'register-edit':
        return registers.edit(step, op.collection, op.field, op.hot, op.pick) ? 'done' : 'nothing-to-do';
      case 'register-remove':
        return registers.remove(step, op.collection, op.pick) ? 'done' : 'nothing-to-do';
      case 'register-sell':
        registers.sell();
        return 'done';
      case 'register-delivery':
        return registers.delivery(op.pick) ? 'done' : 'nothing-to-do';
      case 'faults':
        sim.setFaults(FAULT_PHASES[op.phase]!.faults);
        result.phases++;
        return 'done';
      case 'revoke-token':
        sim.setToken(`soak-token-${options.seed}-${++result.tokenRevocations}`);
        return 'done';
    }
  }

  function at(device: number): (typeof devices)[number] {
    return devices[device - 1]!;
  }
}
