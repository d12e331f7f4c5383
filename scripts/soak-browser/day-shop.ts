/**
 * The day of a day at the register (`--day`), in place of the chaos: the back office at a shop's
 * pace (edits of the records the tabs edit, now and then a delivery or a deletion) and a few short
 * network cuts of one tab at its proxy, drawn from the seed; no reload, close, new tab, freeze,
 * closed lid, fault phase, collision or storage kill. The registers' sales run on their own timer
 * (`Registers.startSelling`). Counted as the chaos is ({@link ChaosCounts}), so the report reads both alike.
 */
import { Rng } from '../../src/simulator/rng.js';
import { drawRegisterAction, type RegisterAction } from './plan.js';
import type { BackOffice } from './back-office.js';
import type { ChaosCounts } from './chaos.js';
import type { TabSet } from './tab-set.js';

/** What happens next in the shop, after `waitMs`. */
export type DayEvent = { waitMs: number } & (RegisterAction | { kind: 'cut-tab'; tab: number; ms: number });

/** Salt of the day's stream, apart from the users' and the chaos's of the same seed. */
const DAY_STREAM = 0xda7;

/** About six events a minute; a network cut about one in thirty (two or three in a quarter of an hour). */
const DAY_WEIGHTS: Readonly<Record<DayEvent['kind'], number>> = { 'register-edit': 80, 'register-delivery': 12, 'register-remove': 4, 'cut-tab': 3 };

/** The day's events for `seed`. */
export function* dayEvents(seed: number): Generator<DayEvent, never> {
  const rng = Rng.of(seed, DAY_STREAM);
  const kinds = Object.keys(DAY_WEIGHTS) as DayEvent['kind'][];
  const total = kinds.reduce((sum, k) => sum + DAY_WEIGHTS[k], 0);
  for (;;) {
    const waitMs = rng.int(4_000, 16_000);
    let roll = rng.next() * total;
    const kind = kinds.find((k) => (roll -= DAY_WEIGHTS[k]) < 0) ?? 'register-edit';
    switch (kind) {
      case 'register-edit':
      case 'register-remove':
      case 'register-delivery':
        yield { waitMs, ...drawRegisterAction(rng, kind) };
        break;
      case 'cut-tab':
        yield { waitMs, kind, tab: rng.next(), ms: rng.int(2_000, 8_000) };
        break;
    }
  }
}

/** What the day works with. */
export interface DayShopOptions {
  seed: number;
  tabs: TabSet;
  backOffice: BackOffice;
  nextStep(): number;
}

const noMoments = () => ({ random: 0, 'mid-pull': { hit: 0, missed: 0 }, 'post-sent': { hit: 0, missed: 0 }, 'post-answered': { hit: 0, missed: 0 } });

/** The shop's day of one run. */
export class DayShop {
  readonly counts: ChaosCounts = {
    actions: 0,
    byKind: {},
    reloads: noMoments(),
    closes: noMoments(),
    opened: 0,
    cuts: { proxy: 0, offline: 0, all: 0 },
    freezes: 0,
    lids: 0,
    faultPhases: 0,
    kills: { ...noMoments(), save: { hit: 0, late: 0, missed: 0 }, none: 0 },
    nothingToDo: 0,
  };
  readonly errors: string[] = [];
  readonly events: { at: number; what: string }[] = [];
  private readonly cuts = new Set<Promise<void>>();

  constructor(private readonly o: DayShopOptions) {}

  /** Runs the day's events while `going()`. */
  async run(going: () => boolean): Promise<void> {
    const events = dayEvents(this.o.seed);
    while (going()) {
      const event = events.next().value;
      for (const until = performance.now() + event.waitMs; going() && performance.now() < until; ) await sleep(Math.min(1_000, until - performance.now()));
      if (!going()) break;
      this.counts.actions++;
      this.counts.byKind[event.kind] = (this.counts.byKind[event.kind] ?? 0) + 1;
      this.events.push({ at: Date.now(), what: JSON.stringify(event) });
      try {
        if (!this.perform(event)) this.counts.nothingToDo++;
      } catch (error) {
        this.errors.push(`day ${JSON.stringify(event)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
    }
  }

  /** Waits for the network cuts under way to end. */
  async restoreAll(): Promise<void> {
    await Promise.all(this.cuts);
  }

  private perform(event: DayEvent): boolean {
    const { backOffice } = this.o;
    switch (event.kind) {
      case 'register-edit':
        return backOffice.edit(this.o.nextStep(), event.collection, event.field, event.hot, event.pick);
      case 'register-remove':
        return backOffice.remove(this.o.nextStep(), event.collection, event.pick);
      case 'register-delivery':
        return backOffice.registers.delivery(event.pick);
      case 'cut-tab': {
        const tab = this.o.tabs.pick(event.tab);
        if (!tab) return false;
        this.counts.cuts.proxy++;
        const cut = (async () => {
          await tab.proxy.stop();
          await sleep(event.ms);
          await tab.proxy.start();
        })().catch((error: unknown) => void this.errors.push(`cut of tab ${tab.slot}: ${error instanceof Error ? error.message : String(error)}`));
        this.cuts.add(cut);
        void cut.finally(() => this.cuts.delete(cut));
        return true;
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
