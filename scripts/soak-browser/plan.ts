/**
 * The seeded plan of a browser soak run: one stream of user actions per tab (the tab's slot
 * seeds it, so a tab opened later has its own), and one stream of what happens to the tabs, the
 * network, the browser and the service (the chaos). Each is drawn from the seed alone, never from
 * the run's state: the same seed gives the same sequences; which record an action touches, which
 * tab is the leader when a trap springs, and the timing depend on the run.
 *
 * A run with storage kills (`--storage-kills`) draws its chaos from other weights, fixed like the
 * usual ones: what the one-tab browser it runs in lacks (reloads, closes, new tabs, a tab frozen
 * alone) is never drawn, and the process serving IndexedDB is killed instead.
 */
import { Rng } from '../../src/simulator/rng.js';
import { FAULT_PHASES } from '../soak/fault-plan.js';
import { CREATES, type CreateKind } from '../soak/operations.js';
import { EDITED, EDIT_FIELDS, REMOVED, type EditedCollection, type RemovedCollection } from '../soak/soak-fields.js';
import type { TrapPoint } from './tab-proxy.js';

/** What the user of a tab does next, and how long they think before the action after it (ms). */
export type UserAction = { thinkMs: number } & (
  | { kind: 'edit'; collection: EditedCollection; field: string; hot: boolean; pick: number }
  | { kind: 'create'; what: CreateKind; pick: number }
  | { kind: 'remove'; collection: RemovedCollection; pick: number }
  | { kind: 'resolve'; pick: number; choice: 'local' | 'server' }
);

/** Where a reload or a close is aimed: a random moment, or a point of the leader's traffic. */
export type Moment = { at: 'random'; delayMs: number } | { at: TrapPoint; gets: number };

/**
 * When the storage process is killed: at one of the {@link Moment}s, or right after the harness
 * told a tab's user to edit or create, while its `save()` is under way (`delayMs` after the call
 * went to the page).
 */
export type KillMoment = Moment | { at: 'save'; delayMs: number };

/** The creates a collision is minted for: a record with children, or alone. */
export const COLLIDED = ['customer', 'order-with-items', 'stockup-with-rows'] as const satisfies readonly CreateKind[];

/** What happens to the tabs, the network, the browser or the service next, after `waitMs`. */
export type ChaosAction = { waitMs: number } & (
  | { kind: 'reload'; tab: number; moment: Moment }
  | { kind: 'close'; tab: number; moment: Moment }
  | { kind: 'open' }
  | { kind: 'cut-tab'; tab: number; ms: number; offline: boolean }
  | { kind: 'cut-all'; ms: number }
  | { kind: 'freeze'; tab: number; ms: number }
  | { kind: 'lid'; ms: number }
  | { kind: 'faults'; phase: number }
  | RegisterAction
  | { kind: 'collide'; tab: number; what: (typeof COLLIDED)[number]; pick: number }
  | { kind: 'kill-storage'; moment: KillMoment }
);

/** Which chaos a run draws: the usual (tabs reloaded, closed, opened, frozen), or storage kills in one tab. */
/** What the back office does at the registers: the chaos's and the day's alike. */
export type RegisterAction =
  | { kind: 'register-edit'; collection: EditedCollection; field: string; hot: boolean; pick: number }
  | { kind: 'register-remove'; collection: RemovedCollection; pick: number }
  | { kind: 'register-delivery'; pick: number };

/** Draws the details of a back-office action of `kind` from `rng` (the chaos and the day draw them alike). */
export function drawRegisterAction(rng: Rng, kind: RegisterAction['kind']): RegisterAction {
  switch (kind) {
    case 'register-edit': {
      const collection = rng.pick(EDITED);
      return { kind, collection, field: rng.pick(EDIT_FIELDS[collection])[0], hot: rng.chance(0.6), pick: rng.next() };
    }
    case 'register-remove':
      return { kind, collection: rng.pick(REMOVED), pick: rng.next() };
    case 'register-delivery':
      return { kind, pick: rng.next() };
  }
}

export type ChaosMode = 'tabs' | 'storage-kills';

/** The kinds of chaos. */
export type ChaosKind = ChaosAction['kind'];

/** Salts of the streams, so they differ from each other and from the simulator's of the same seed. */
const USER_STREAM = 0x7ab5;
const CHAOS_STREAM = 0xc4a0;

const USER_WEIGHTS = { edit: 40, create: 12, remove: 4, resolve: 4 } as const;

const CHAOS_WEIGHTS: Readonly<Partial<Record<ChaosKind, number>>> = {
  reload: 10,
  close: 3,
  open: 4,
  'cut-tab': 4,
  'cut-all': 1.5,
  freeze: 3,
  lid: 1.5,
  faults: 4,
  'register-edit': 14,
  'register-remove': 1,
  'register-delivery': 2,
  collide: 2,
};

/** The chaos that needs more than the one tab of the inspected WebKit: a reload, a close, another tab, one tab frozen alone. */
export const NEEDS_TABS: readonly ChaosKind[] = ['reload', 'close', 'open', 'freeze'];

/** Storage kills: the usual weights without what needs tabs, and a kill about one action in four. */
const STORAGE_KILL_WEIGHTS: Readonly<Partial<Record<ChaosKind, number>>> = {
  ...Object.fromEntries(Object.entries(CHAOS_WEIGHTS).filter(([kind]) => !NEEDS_TABS.includes(kind as ChaosKind))),
  'kill-storage': 10,
};

/** The user actions of the tab in `slot`. */
export function* userActions(seed: number, slot: number): Generator<UserAction, never> {
  const rng = Rng.of(seed, USER_STREAM, slot);
  for (;;) {
    const thinkMs = rng.int(150, 1_500);
    const kind = weighted(rng, USER_WEIGHTS);
    switch (kind) {
      case 'edit': {
        const collection = rng.pick(EDITED);
        yield { thinkMs, kind, collection, field: rng.pick(EDIT_FIELDS[collection])[0], hot: rng.chance(0.6), pick: rng.next() };
        break;
      }
      case 'create':
        yield { thinkMs, kind, what: rng.pick(CREATES), pick: rng.next() };
        break;
      case 'remove':
        yield { thinkMs, kind, collection: rng.pick(REMOVED), pick: rng.next() };
        break;
      case 'resolve':
        yield { thinkMs, kind, pick: rng.next(), choice: rng.chance(0.5) ? 'local' : 'server' };
        break;
    }
  }
}

/**
 * The chaos of a run. `tab` is an index (0..1) into the tabs open when it happens; a reload or
 * close aimed at a point of the traffic goes to whichever tab makes that request (the leader).
 * `mode` picks the weights (see the file's comment); the same seed and mode give the same chaos.
 */
export function* chaosActions(seed: number, mode: ChaosMode = 'tabs'): Generator<ChaosAction, never> {
  const rng = Rng.of(seed, CHAOS_STREAM);
  const weights = mode === 'tabs' ? CHAOS_WEIGHTS : STORAGE_KILL_WEIGHTS;
  for (;;) {
    const waitMs = rng.int(300, 2_500);
    const kind = weighted(rng, weights);
    const tab = rng.next();
    switch (kind) {
      case 'reload':
      case 'close':
        yield { waitMs, kind, tab, moment: moment(rng) };
        break;
      case 'open':
        yield { waitMs, kind };
        break;
      case 'cut-tab':
        yield { waitMs, kind, tab, ms: rng.int(500, 8_000), offline: rng.chance(0.3) };
        break;
      case 'cut-all':
        yield { waitMs, kind, ms: rng.int(1_000, 10_000) };
        break;
      case 'freeze':
        yield { waitMs, kind, tab, ms: rng.int(500, 6_000) };
        break;
      case 'lid':
        yield { waitMs, kind, ms: rng.int(500, 5_000) };
        break;
      case 'faults':
        yield { waitMs, kind, phase: rng.int(0, FAULT_PHASES.length - 1) };
        break;
      case 'register-edit':
      case 'register-remove':
      case 'register-delivery':
        yield { waitMs, ...drawRegisterAction(rng, kind) };
        break;
      case 'collide':
        yield { waitMs, kind, tab, what: rng.pick(COLLIDED), pick: rng.next() };
        break;
      case 'kill-storage':
        yield { waitMs, kind, moment: killMoment(rng) };
        break;
    }
  }
}

function moment(rng: Rng): Moment {
  const roll = rng.next();
  if (roll < 0.4) return { at: 'random', delayMs: rng.int(0, 400) };
  if (roll < 0.6) return { at: 'mid-pull', gets: rng.int(1, 14) };
  if (roll < 0.8) return { at: 'post-sent', gets: 0 };
  return { at: 'post-answered', gets: 0 };
}

function killMoment(rng: Rng): KillMoment {
  const roll = rng.next();
  if (roll < 0.25) return { at: 'random', delayMs: rng.int(0, 400) };
  if (roll < 0.45) return { at: 'mid-pull', gets: rng.int(1, 14) };
  if (roll < 0.65) return { at: 'post-sent', gets: 0 };
  if (roll < 0.8) return { at: 'post-answered', gets: 0 };
  return { at: 'save', delayMs: rng.int(0, 40) };
}

/** A kind drawn by weight; kinds of weight 0 or absent are never drawn. */
function weighted<K extends string>(rng: Rng, weights: Readonly<Partial<Record<K, number>>>): K {
  const kinds = (Object.keys(weights) as K[]).filter((k) => (weights[k] ?? 0) > 0);
  let roll = rng.next() * kinds.reduce((sum, k) => sum + weights[k]!, 0);
  for (const kind of kinds) {
    roll -= weights[kind]!;
    if (roll < 0) return kind;
  }
  return kinds[kinds.length - 1]!;
}
