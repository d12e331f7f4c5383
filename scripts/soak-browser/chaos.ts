/**
 * What happens to the tabs, their network, the browser and the service during a browser soak run,
 * one action at a time from the seeded chaos plan (`plan.ts`):
 * - reloads and closes at a random moment, or at a point of the leader's traffic: a trap on every
 *   tab's proxy springs on the tab that makes the request (mid-pull, right after a POST went out,
 *   right after it was answered); new tabs opened while fewer than `--tabs` are open;
 * - a tab's network cut at its proxy (or with the engine's offline emulation where it has one),
 *   every tab's at once, and brought back after a while;
 * - a tab frozen (Chromium), or the whole browser's page processes stopped (a closed lid: the way
 *   Firefox and WebKit freeze, having no per-tab command), for a while;
 * - fault phases of the simulator, the back office's edits, deletions and deliveries;
 * - an id collision: a tab creates a record (with children or alone) and another device's record
 *   is written on the server under its id, before the first pull that can see it;
 * - with `--storage-kills`, the process serving IndexedDB killed (`EngineBrowser.killStorage`) at
 *   a random moment, at a point of the leader's traffic (as a reload is aimed), or while a user's
 *   `save()` is under way.
 */
import type { EngineBrowser } from '../engines/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { FAULT_PHASES } from '../soak/fault-plan.js';
import type { Ledger } from '../soak/ledger.js';
import { uniqueValue } from '../soak/soak-fields.js';
import type { BackOffice } from './back-office.js';
import type { BrowserSoakOptions } from './options.js';
import type { PageOutcome } from './page/soak-page.js';
import { chaosActions, type ChaosAction, type ChaosKind, type KillMoment, type Moment } from './plan.js';
import type { SoakTab } from './soak-tab.js';
import type { TabSet } from './tab-set.js';
import type { TrapPoint } from './tab-proxy.js';
import { play, type SaveUnderWay } from './users.js';

/** How long a trap waits for its request before it counts as missed (ms). */
const TRAP_WAIT_MS = 20_000;
/** How long a kill aimed at a save waits for a user to start one (ms). */
const SAVE_WAIT_MS = 10_000;

/** How a reload or a close landed: at a random moment, or at a point of the traffic (hit, or missed: no such request came). */
export type MomentCounts = { random: number } & Record<TrapPoint, { hit: number; missed: number }>;

/**
 * How the storage kills landed: as {@link MomentCounts}, and during a save (hit: the page had not
 * answered when the kill came; late: it had, the kill came all the same; missed: no save started
 * in time, no kill); `none` counts kills that found no storage process (WebKit starts a new one
 * only when one is needed).
 */
export type KillCounts = MomentCounts & { save: { hit: number; late: number; missed: number }; none: number };

/** What the chaos did. */
export interface ChaosCounts {
  actions: number;
  byKind: Partial<Record<ChaosKind, number>>;
  reloads: MomentCounts;
  closes: MomentCounts;
  /** Tabs opened after the first ones. */
  opened: number;
  cuts: { proxy: number; offline: number; all: number };
  /** Tabs frozen on their own (Chromium), and lids closed (every page process stopped). */
  freezes: number;
  lids: number;
  faultPhases: number;
  kills: KillCounts;
  /** Chaos actions that found nothing to act on (no tab open, a freeze asked of a frozen tab). */
  nothingToDo: number;
}

/** What the chaos works with. */
export interface ChaosOptions {
  options: BrowserSoakOptions;
  sim: Simulator;
  browser: EngineBrowser;
  tabs: TabSet;
  backOffice: BackOffice;
  ledger: Ledger;
  nextStep(): number;
  /** Told of each tab it opens (its user starts). */
  onTabOpened(tab: SoakTab): void;
  /** The next user's save sent to a page, or undefined when none came within `timeoutMs` (see `Users.nextSave`). */
  nextSave(timeoutMs: number): Promise<SaveUnderWay | undefined>;
}

const moments = (): MomentCounts => ({ random: 0, 'mid-pull': { hit: 0, missed: 0 }, 'post-sent': { hit: 0, missed: 0 }, 'post-answered': { hit: 0, missed: 0 } });

/** The chaos of one run. */
export class Chaos {
  readonly counts: ChaosCounts = {
    actions: 0,
    byKind: {},
    reloads: moments(),
    closes: moments(),
    opened: 0,
    cuts: { proxy: 0, offline: 0, all: 0 },
    freezes: 0,
    lids: 0,
    faultPhases: 0,
    kills: { ...moments(), save: { hit: 0, late: 0, missed: 0 }, none: 0 },
    nothingToDo: 0,
  };
  /** Harness actions that failed (a reload that did not load, a tab that would not open). */
  readonly errors: string[] = [];
  /** What the chaos did, when (harness clock): for a trace of a violation. */
  readonly events: { at: number; what: string }[] = [];
  /** What undoes a cut or a freeze, due later: run at once when the run settles. */
  private readonly restores = new Map<ReturnType<typeof setTimeout>, () => Promise<void>>();

  constructor(private readonly o: ChaosOptions) {}

  /** Runs the plan, one action after another, while `going()`. */
  async run(going: () => boolean): Promise<void> {
    const plan = chaosActions(this.o.options.seed, this.o.options.storageKills ? 'storage-kills' : 'tabs');
    while (going()) {
      const action = plan.next().value;
      await new Promise((resolve) => setTimeout(resolve, action.waitMs));
      if (!going()) break;
      this.counts.actions++;
      this.counts.byKind[action.kind] = (this.counts.byKind[action.kind] ?? 0) + 1;
      this.note(action.kind === 'register-edit' || action.kind === 'register-remove' || action.kind === 'faults' ? JSON.stringify(action) : action.kind);
      try {
        if ((await this.perform(action)) === 'nothing-to-do') this.counts.nothingToDo++;
      } catch (error) {
        this.errors.push(`chaos ${JSON.stringify(action)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
    }
  }

  /** Undoes every cut and freeze still in force, and disarms every trap. */
  async restoreAll(): Promise<void> {
    for (const [timer, restore] of [...this.restores]) {
      clearTimeout(timer);
      this.restores.delete(timer);
      await restore().catch((error: unknown) => this.errors.push(`restore: ${error instanceof Error ? error.message : String(error)}`));
    }
    await this.o.browser.suspend(false);
    for (const tab of this.o.tabs.open) {
      tab.proxy.disarm();
      await tab.proxy.start();
      if (tab.frozen) await tab.thaw();
      await tab.online();
    }
  }

  private async perform(action: ChaosAction): Promise<'done' | 'nothing-to-do'> {
    const { tabs, backOffice, sim } = this.o;
    switch (action.kind) {
      case 'reload':
      case 'close': {
        const kind = action.kind;
        return this.strike(kind === 'reload' ? this.counts.reloads : this.counts.closes, action.tab, action.moment, kind, (tab) => this.hit(kind, tab));
      }
      case 'kill-storage':
        return this.killStorage(action.moment);
      case 'open':
        if (tabs.open.length >= this.o.options.tabs) return 'nothing-to-do';
        await this.open();
        return 'done';
      case 'cut-tab': {
        const tab = tabs.pick(action.tab, true);
        if (!tab) return 'nothing-to-do';
        this.note(`cut tab ${tab.slot}${action.offline && tab.tab.setOffline && !tab.frozen ? ' (offline mode)' : ''} for ${action.ms} ms`);
        if (action.offline && tab.tab.setOffline && !tab.frozen) {
          await tab.offlineNow();
          this.counts.cuts.offline++;
          this.later(action.ms, () => (tab.alive ? tab.online() : Promise.resolve()));
        } else {
          await tab.proxy.stop();
          this.counts.cuts.proxy++;
          this.later(action.ms, () => (tab.alive ? tab.proxy.start() : Promise.resolve()));
        }
        return 'done';
      }
      case 'cut-all': {
        const cut = tabs.open;
        for (const tab of cut) await tab.proxy.stop();
        this.counts.cuts.all++;
        this.later(action.ms, async () => {
          for (const tab of cut) if (tab.alive) await tab.proxy.start();
        });
        return 'done';
      }
      case 'freeze': {
        const tab = tabs.pick(action.tab);
        if (!tab) return 'nothing-to-do';
        if (!tab.tab.freeze) return this.lid(action.ms);
        this.note(`freeze tab ${tab.slot} for ${action.ms} ms`);
        await tab.freeze();
        this.counts.freezes++;
        this.later(action.ms, () => (tab.alive && tab.frozen ? tab.thaw() : Promise.resolve()));
        return 'done';
      }
      case 'lid':
        return this.lid(action.ms);
      case 'faults':
        sim.setFaults(FAULT_PHASES[action.phase]!.faults);
        this.counts.faultPhases++;
        return 'done';
      case 'register-edit':
        return backOffice.edit(this.o.nextStep(), action.collection, action.field, action.hot, action.pick) ? 'done' : 'nothing-to-do';
      case 'register-remove':
        return backOffice.remove(this.o.nextStep(), action.collection, action.pick) ? 'done' : 'nothing-to-do';
      case 'register-delivery':
        return backOffice.registers.delivery(action.pick) ? 'done' : 'nothing-to-do';
      case 'collide':
        return this.collide(action);
    }
  }

  /**
   * Strikes a tab with `act` (a reload, a close, a storage kill), counted in `counts`: after a
   * random delay, or when a trap springs on the request it aims at.
   */
  private async strike(counts: MomentCounts, pick: number, moment: Moment, kind: string, act: (tab: SoakTab) => Promise<void>): Promise<'done' | 'nothing-to-do'> {
    if (moment.at === 'random') {
      const tab = this.o.tabs.pick(pick, true);
      if (!tab) return 'nothing-to-do';
      if (moment.delayMs % 2 === 0) {
        // In the middle of the user's action, when one comes: its transaction may be under way.
        for (const until = Date.now() + 3_000; tab.alive && tab.busy === 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 3));
        await new Promise((resolve) => setTimeout(resolve, moment.delayMs % 20));
      } else await new Promise((resolve) => setTimeout(resolve, moment.delayMs));
      if (!tab.alive) return 'nothing-to-do';
      await act(tab);
      counts.random++;
      return 'done';
    }
    const armed = this.o.tabs.open.filter((t) => !t.frozen);
    if (armed.length === 0) return 'nothing-to-do';
    const point = moment.at;
    const outcome = await new Promise<'hit' | 'missed'>((resolve) => {
      let sprung = false;
      const timer = setTimeout(() => {
        if (sprung) return;
        sprung = true;
        for (const t of armed) t.proxy.disarm();
        resolve('missed');
      }, TRAP_WAIT_MS);
      for (const tab of armed) {
        tab.proxy.arm({
          point,
          left: moment.gets,
          spring: () => {
            if (sprung) return;
            sprung = true;
            clearTimeout(timer);
            for (const t of armed) if (t !== tab) t.proxy.disarm();
            act(tab).then(
              () => resolve('hit'),
              (error: unknown) => {
                this.errors.push(`${kind} at ${point}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
                resolve('hit');
              },
            );
          },
        });
      }
    });
    counts[point][outcome]++;
    return 'done';
  }

  /** Kills the storage process at `moment` (see the file's comment). */
  private async killStorage(moment: KillMoment): Promise<'done' | 'nothing-to-do'> {
    if (!this.o.browser.killStorage) throw new Error(`kill-storage: the ${this.o.browser.engine} browser of this run cannot kill its storage process`);
    if (moment.at !== 'save') return this.strike(this.counts.kills, 0, moment, 'kill-storage', () => this.kill(moment.at));
    const save = await this.o.nextSave(SAVE_WAIT_MS);
    if (!save) {
      this.counts.kills.save.missed++;
      return 'nothing-to-do';
    }
    await new Promise((resolve) => setTimeout(resolve, moment.delayMs));
    const underWay = !save.settled();
    await this.kill(`save in tab ${save.slot}${underWay ? '' : ', already answered'}`);
    if (underWay) this.counts.kills.save.hit++;
    else this.counts.kills.save.late++;
    void save.outcome.then((outcome) => this.note(`the save in tab ${save.slot} the kill met ended: ${outcome}`));
    return 'done';
  }

  /** Kills the storage process now; notes how many processes that ended (none: WebKit had not started a new one yet). */
  private async kill(where: string): Promise<void> {
    const killed = await this.o.browser.killStorage!();
    this.note(`storage process killed (${where}): ${killed} process(es)`);
    if (killed === 0) this.counts.kills.none++;
  }

  /** Reloads or closes `tab`; after a close, a tab is opened when none is left. */
  private async hit(kind: 'reload' | 'close', tab: SoakTab): Promise<void> {
    this.note(`${kind} tab ${tab.slot} (load ${tab.session ?? '?'})`);
    if (kind === 'reload') {
      await tab.reload();
      this.note(`tab ${tab.slot} reloaded (load ${tab.session ?? '?'})`);
      return;
    }
    await tab.close();
    if (this.o.tabs.open.length === 0) await this.open();
  }

  private async open(): Promise<void> {
    const tab = await this.o.tabs.add();
    this.note(`tab ${tab.slot} opened (load ${tab.session ?? '?'})`);
    this.counts.opened++;
    this.o.onTabOpened(tab);
  }

  /** Every page process of the browser stopped for `ms`, then resumed: a closed lid. */
  private async lid(ms: number): Promise<'done'> {
    const tabs = this.o.tabs.open;
    const frozen = tabs.map((tab) => tab.frozen);
    for (const tab of tabs) tab.frozen = true;
    this.note(`lid closed for ${ms} ms`);
    await this.o.browser.suspend(true);
    this.counts.lids++;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      await this.o.browser.suspend(false);
      this.note('lid opened');
      tabs.forEach((tab, i) => (tab.frozen = frozen[i]!));
    }
    return 'done';
  }

  /**
   * A tab creates a record (with its children); another device's record is minted under the
   * parent's id on the server, before the first pull of its collection (see `BackOffice.collide`).
   */
  private async collide(action: Extract<ChaosAction, { kind: 'collide' }>): Promise<'done' | 'nothing-to-do'> {
    const tab = this.o.tabs.pick(action.tab);
    if (!tab) return 'nothing-to-do';
    const since = Date.now();
    const step = this.o.nextStep();
    const generation = tab.generation;
    let outcome: PageOutcome;
    let record: Record<string, unknown> | undefined;
    let created: [number, string, 'customers' | 'orders' | 'stockup', string, string | undefined] | undefined;
    try {
      outcome = await tab.call<PageOutcome>('create', { step, what: action.what, pick: action.pick });
      play(this.o.ledger, outcome.calls, this.o.nextStep());
      created = outcome.calls.find((c) => c[0] === 'created')?.[1] as typeof created;
      record = created && (await tab.call<Record<string, unknown> | undefined>('record', { collection: created[2], id: created[3] }));
    } catch (error) {
      // A reload or a close of the tab (another chaos action's trap) cut it short.
      if (tab.generation !== generation || !tab.alive) return 'nothing-to-do';
      throw error;
    }
    if (!created || !record) return 'nothing-to-do';
    const [, , collection, id, marker] = created;
    const text = (part: number) => uniqueValue('text', 'register', step, part);
    const values: Record<string, unknown> =
      collection === 'customers' ? { firstname: text(0), lastname: text(1), note_internal: text(2) } : collection === 'orders' ? { note: text(0), tags: text(1) } : { note: text(0), invoice_number: text(1) };
    this.o.backOffice.collide({ collection, id, marker, record, values, since, step });
    this.note(`collision armed on ${collection} ${id} (tab ${tab.slot}, step ${step})`);
    return 'done';
  }

  private note(what: string): void {
    this.events.push({ at: Date.now(), what });
  }

  /** Runs `restore` after `ms`, or when the run settles, whichever comes first. */
  private later(ms: number, restore: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.restores.delete(timer);
      this.note('restore (network back, or thaw)');
      restore().catch((error: unknown) => this.errors.push(`restore: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`));
    }, ms);
    this.restores.set(timer, restore);
  }
}
