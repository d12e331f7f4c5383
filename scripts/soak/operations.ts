/**
 * The operation generator: a seeded stream of what happens next in a soak run. Each operation is
 * drawn from the seed alone (never from the run's state), so the same seed gives the same
 * sequence whatever the timing; which record an operation touches is chosen when it runs, from
 * its `pick` (0..1) over the records there are then.
 */
import { Rng } from '../../src/simulator/rng.js';
import { FAULT_PHASES } from './fault-plan.js';
import { EDITED, EDIT_FIELDS, REMOVED, type EditedCollection, type RemovedCollection } from './soak-fields.js';

/** What a device creates: records with the children they need, in one transaction. */
export const CREATES = ['customer', 'product-with-price', 'price', 'order-with-items', 'warehouse', 'stockup-with-rows'] as const;
/** One of {@link CREATES}. */
export type CreateKind = (typeof CREATES)[number];

/**
 * Where a restart closes the mirror: after the n-th answered GET of its sync (`mid-pull`), as its
 * first POST goes out (`before-post`: it may land or not), once that POST was answered but before
 * the mirror read the answer (`after-post`: it landed, unacknowledged), or after a random delay.
 */
export const RESTART_POINTS = ['mid-pull', 'before-post', 'after-post', 'random'] as const;
/** One of {@link RESTART_POINTS}. */
export type RestartPoint = (typeof RESTART_POINTS)[number];

/** One thing that happens in a soak run. Devices are numbered from 1. */
export type Operation =
  | { kind: 'edit'; device: number; collection: EditedCollection; field: string; hot: boolean; pick: number }
  | { kind: 'create'; device: number; what: CreateKind; pick: number }
  | { kind: 'remove'; device: number; collection: RemovedCollection; pick: number }
  | { kind: 'sync'; device: number }
  | { kind: 'start-stop'; device: number }
  | { kind: 'sweep'; device: number; full: boolean }
  | { kind: 'restart'; device: number; point: RestartPoint; after: number }
  | { kind: 'resolve'; device: number; pick: number; choice: 'local' | 'server' }
  | { kind: 'give-token'; device: number }
  | { kind: 'register-edit'; collection: EditedCollection; field: string; hot: boolean; pick: number }
  | { kind: 'register-remove'; collection: RemovedCollection; pick: number }
  | { kind: 'register-sell' }
  | { kind: 'register-delivery'; pick: number }
  | { kind: 'faults'; phase: number }
  | { kind: 'revoke-token' };

/** The kinds of operation. */
export type OperationKind = Operation['kind'];

/** How often each kind comes, relative to the others. */
const WEIGHTS: Readonly<Record<OperationKind, number>> = {
  edit: 30,
  create: 10,
  remove: 3,
  sync: 18,
  'start-stop': 3,
  sweep: 1,
  restart: 6,
  resolve: 2,
  'give-token': 3,
  'register-edit': 14,
  'register-remove': 1,
  'register-sell': 4,
  'register-delivery': 2,
  faults: 5,
  'revoke-token': 0.3,
};

const KINDS = Object.keys(WEIGHTS) as OperationKind[];
const TOTAL = KINDS.reduce((sum, k) => sum + WEIGHTS[k], 0);

/** Salt of the operation stream, so that it differs from the simulator's streams of the same seed. */
const STREAM = 0x50a4;

/** The seeded sequence of operations of a run with `devices` devices. */
export function* operations(seed: number, devices: number): Generator<Operation, never> {
  const rng = Rng.of(seed, STREAM, devices);
  for (;;) yield draw(rng, devices);
}

function draw(rng: Rng, devices: number): Operation {
  const kind = weighted(rng);
  const device = rng.int(1, devices);
  switch (kind) {
    case 'edit':
    case 'register-edit': {
      const collection = rng.pick(EDITED);
      const field = rng.pick(EDIT_FIELDS[collection])[0];
      const hot = rng.chance(0.6);
      const pick = rng.next();
      return kind === 'edit' ? { kind, device, collection, field, hot, pick } : { kind, collection, field, hot, pick };
    }
    case 'create':
      return { kind, device, what: rng.pick(CREATES), pick: rng.next() };
    case 'remove':
    case 'register-remove': {
      const collection = rng.pick(REMOVED);
      const pick = rng.next();
      return kind === 'remove' ? { kind, device, collection, pick } : { kind, collection, pick };
    }
    case 'sync':
    case 'start-stop':
    case 'give-token':
      return { kind, device };
    case 'sweep':
      return { kind, device, full: rng.chance(0.3) };
    case 'restart': {
      const point = rng.pick(RESTART_POINTS);
      return { kind, device, point, after: point === 'mid-pull' ? rng.int(1, 12) : point === 'random' ? rng.int(0, 400) : 0 };
    }
    case 'resolve':
      return { kind, device, pick: rng.next(), choice: rng.chance(0.5) ? 'local' : 'server' };
    case 'register-sell':
    case 'revoke-token':
      return { kind };
    case 'register-delivery':
      return { kind, pick: rng.next() };
    case 'faults':
      return { kind, phase: rng.int(0, FAULT_PHASES.length - 1) };
  }
}

function weighted(rng: Rng): OperationKind {
  let roll = rng.next() * TOTAL;
  for (const kind of KINDS) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return KINDS[KINDS.length - 1]!;
}
