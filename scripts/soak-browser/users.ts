/**
 * The users of a browser soak run: one per open tab, acting on its own seeded plan (edits,
 * creates, deletions, conflicts resolved) through the page's mirror, a think-time apart. A write
 * counts once the `evaluate` that made it returned and its notes are in the ledger: one cut short
 * by a reload or a close of its tab is not acknowledged (it may or may not have committed), nor is
 * one the page refused because its connection to IndexedDB was lost (the app said it was not made).
 */
import type { Ledger } from '../soak/ledger.js';
import type { PageOutcome } from './page/soak-page.js';
import { replay, type LedgerCall } from './page/recording-ledger.js';
import { userActions, type UserAction } from './plan.js';
import type { SoakTab } from './soak-tab.js';

/** What the users did. */
export interface UserCounts {
  actions: number;
  byKind: Partial<Record<UserAction['kind'], number>>;
  /** Actions that found nothing to act on (no conflict to resolve, no record to delete). */
  nothingToDo: number;
  /** Actions cut short by a reload or a close of their tab (not acknowledged). */
  interrupted: number;
  /** Of those, pages the engine reloaded by itself (not the harness). */
  reloadedByEngine: number;
  /** Actions the page refused because its connection to IndexedDB was lost (not made, not noted). */
  lost: number;
}

/** A user's edit or create the page was just told to make (see {@link Users.nextSave}). */
export interface SaveUnderWay {
  slot: number;
  /** Whether the page has answered (the save resolved or rejected). */
  settled(): boolean;
  /** How it ended: `done`, `nothing-to-do`, `lost`, or `threw`. */
  outcome: Promise<string>;
}

/** What the users work with. */
export interface UsersOptions {
  seed: number;
  ledger: Ledger;
  /** The next step of the run (every value written is unique by its step). */
  nextStep(): number;
  /**
   * Think times are multiplied by this: a day at the register's users act now and then.
   * @default 1
   */
  thinkScale?: number;
}

/** Every tab's user. */
export class Users {
  readonly counts: UserCounts = { actions: 0, byKind: {}, nothingToDo: 0, interrupted: 0, reloadedByEngine: 0, lost: 0 };
  /** Actions the page refused where it should not have (a valid save that threw). */
  readonly errors: string[] = [];
  /** Each action, its tab, when it began and ended (harness clock), and how: for a trace of a violation. */
  readonly log: { step: number; completed?: number; slot: number; kind: string; from: number; to: number; outcome: string }[] = [];
  private active = true;
  private readonly loops: Promise<void>[] = [];
  private readonly wake = new Set<() => void>();
  private readonly saveWatchers = new Set<(save: SaveUnderWay) => void>();

  constructor(private readonly options: UsersOptions) {}

  /** Starts the user of a tab (a new tab, or one of the first ones). */
  start(tab: SoakTab): void {
    this.loops.push(this.act(tab));
  }

  /** Stops every user after the action under way, and waits for them. */
  async stop(): Promise<void> {
    this.active = false;
    for (const wake of this.wake) wake();
    await Promise.all(this.loops);
  }

  /**
   * Resolves as soon as a user's next edit or create (a `save()`) has been sent to its page, or
   * with undefined when none is within `timeoutMs`: for chaos aimed at a save under way.
   */
  nextSave(timeoutMs: number): Promise<SaveUnderWay | undefined> {
    return new Promise((resolve) => {
      const take = (save: SaveUnderWay | undefined) => {
        clearTimeout(timer);
        this.saveWatchers.delete(take);
        resolve(save);
      };
      const timer = setTimeout(take, timeoutMs, undefined);
      this.saveWatchers.add(take);
    });
  }

  private async act(tab: SoakTab): Promise<void> {
    const plan = userActions(this.options.seed, tab.slot);
    while (this.active && tab.alive) {
      const action = plan.next().value;
      // A frozen tab, or one loading, does nothing until it is back.
      while (this.active && tab.alive && (tab.frozen || tab.session === undefined)) await this.pause(100);
      if (!this.active || !tab.alive) break;
      await this.perform(tab, action);
      await this.pause(action.thinkMs * (this.options.thinkScale ?? 1));
    }
  }

  private async perform(tab: SoakTab, action: UserAction): Promise<void> {
    const step = this.options.nextStep();
    const generation = tab.generation;
    this.counts.actions++;
    this.counts.byKind[action.kind] = (this.counts.byKind[action.kind] ?? 0) + 1;
    const { thinkMs: _think, kind, ...arg } = action;
    const from = Date.now();
    let how: string;
    let completed: number | undefined;
    try {
      const call = tab.call<PageOutcome>(kind, { ...arg, step });
      if (kind === 'edit' || kind === 'create') this.tellSave(tab, call);
      const outcome = await call;
      completed = this.options.nextStep();
      play(this.options.ledger, outcome.calls, completed);
      if (outcome.outcome === 'nothing-to-do') this.counts.nothingToDo++;
      if (outcome.outcome === 'lost') this.counts.lost++;
      how = outcome.outcome;
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      if (tab.generation !== generation || !tab.alive) this.counts.interrupted++;
      else if (tab.alive && (await tab.reloadedByItself())) {
        this.counts.interrupted++;
        this.counts.reloadedByEngine++;
      } else this.errors.push(`step ${step}, tab ${tab.slot}, ${JSON.stringify(action)}: ${message}`);
      how = `threw: ${message}`;
    }
    this.log.push({ step, ...(completed === undefined ? {} : { completed }), slot: tab.slot, kind, from, to: Date.now(), outcome: how });
  }

  private tellSave(tab: SoakTab, call: Promise<PageOutcome>): void {
    if (this.saveWatchers.size === 0) return;
    let settled = false;
    const outcome = call.then(
      (o) => o.outcome as string,
      () => 'threw',
    );
    void outcome.then(() => (settled = true));
    for (const watcher of [...this.saveWatchers]) watcher({ slot: tab.slot, settled: () => settled, outcome });
  }

  /** Waits `ms`, or less when the users stop. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake.add(done);
    });
  }
}

/**
 * Plays a page's notes into the run's ledger. Writes and creates take `completed`, the step at
 * which the harness learned of them: a conflict resolved from a step on can only have dropped a
 * write that was in the database by then. Conflict notes keep the step their action began at.
 */
export function play(ledger: Ledger, calls: readonly LedgerCall[], completed: number): void {
  for (const call of calls) if (call[0] === 'wrote' || call[0] === 'removed' || call[0] === 'created') call[1][0] = completed;
  replay(ledger, calls);
}
