/**
 * One tab of the browser soak: a page of the soak app in a slot (its own proxy, so its own
 * network), and what the harness does to it: open, reload, close, freeze, cut its network. A
 * reload keeps the slot and starts a new session (a page load); the harness notes when it began
 * to end each session, for the leader check.
 */
import type { EngineTab } from '../engines/index.js';
import type { PageReport } from './page/soak-page.js';
import type { GoingStretch } from './browser-checks.js';
import type { TabProxy } from './tab-proxy.js';

/** What every tab shares: where the app is, and where each session's end is noted. */
export interface TabContext {
  /** The app's address with everything but the slot and the API (see `soak-page.ts`). */
  pageUrl(slot: number, api: string): string;
  /** Sessions the harness ended (reloaded, closed), with when it began to. */
  ended: Map<string, number>;
  /** Takes reports read from a page (those whose beacons the engine's offline mode lost). */
  collect(reports: readonly PageReport[]): void;
  /** Per tab (its page's error reporter's id): when the harness was reloading or closing it (see `BrowserSoakState.going`). */
  going: Map<string, GoingStretch[]>;
  /** Told when a call into a page did not answer within {@link PAGE_CALL_LIMIT_MS}: the run fails with it. */
  hung(error: PageHangError): void;
}

/**
 * The longest a call into a page may take while the tab is not frozen (ms): a save waits at most
 * 10 s for a lost connection, a sync's requests 10 s each with two retries. A call that takes
 * longer means the page stopped answering (a promise that never settles), and the run fails
 * saying so, rather than wait for ever.
 */
export const PAGE_CALL_LIMIT_MS = 120_000;

/** How long the page has to describe itself once a call timed out (ms). */
const DIAGNOSE_LIMIT_MS = 10_000;

/** A call into a page that did not answer in time, with what the page said of its mirror then. */
export class PageHangError extends Error {
  override readonly name = 'PageHangError';
}

/** One slot's tab. */
export class SoakTab {
  /** The page load now (undefined until it has booted, and after a close). */
  session: string | undefined;
  alive = true;
  /** Frozen (Chromium), or its page processes stopped with the browser's (a closed lid). */
  frozen = false;
  /** Its network cut with `setOffline` (the engine's own emulation), rather than at its proxy. */
  offline = false;
  /** Bumped by every reload and close: an action under way across one was cut short, not refused. */
  generation = 0;
  /** Calls into the page under way (a user's action in its transaction, say). */
  busy = 0;
  /** The id its page's error reporter gives its errors (`PageError.tab`), once it has booted. */
  private errorsTab: string | undefined;

  constructor(
    readonly slot: number,
    readonly tab: EngineTab,
    readonly proxy: TabProxy,
    private readonly context: TabContext,
  ) {}

  /** Loads the app and waits until its mirror has started. */
  async open(): Promise<void> {
    await this.tab.goto(this.context.pageUrl(this.slot, this.proxy.baseUrl));
    await this.booted();
  }

  /**
   * Runs a function of the page's `soak` module with `arg` (see `soak-page.ts`). One that has not
   * answered after {@link PAGE_CALL_LIMIT_MS} of the tab not frozen rejects with a
   * {@link PageHangError} naming the call and what the page says of its mirror (its status), and
   * the run is told (`TabContext.hung`).
   */
  async call<R>(name: string, arg?: unknown): Promise<R> {
    this.busy++;
    let watchdog: ReturnType<typeof setInterval> | undefined;
    try {
      const answer = this.evaluateSoak<R>(name, arg);
      const hang = new Promise<never>((_, reject) => {
        let waited = 0;
        watchdog = setInterval(() => {
          if (this.frozen) return;
          waited += 1_000;
          if (waited < PAGE_CALL_LIMIT_MS) return;
          clearInterval(watchdog);
          void this.hangError(name, arg).then((error) => {
            this.context.hung(error);
            reject(error);
          });
        }, 1_000);
      });
      return await Promise.race([answer, hang]);
    } finally {
      clearInterval(watchdog);
      this.busy--;
    }
  }

  private evaluateSoak<R>(name: string, arg: unknown): Promise<R> {
    return this.tab.evaluate(
      ([fn, a]) => ((globalThis as unknown as Record<string, Record<string, (x: unknown) => unknown>>).soak![fn]!(a) as R),
      [name, arg ?? null] as [string, unknown],
    );
  }

  /** The error of a call that did not answer, with the page's own account of its mirror (or why there is none). */
  private async hangError(name: string, arg: unknown): Promise<PageHangError> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(resolve, DIAGNOSE_LIMIT_MS, `no answer within ${DIAGNOSE_LIMIT_MS / 1000} s either`)));
    const said = this.evaluateSoak<unknown>('diagnose', null).then(
      (d) => JSON.stringify(d),
      (error: unknown) => `it could not say (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
    const diagnosis = await Promise.race([said, late]).finally(() => clearTimeout(timer));
    const call = `${name}(${JSON.stringify(arg ?? null)})`;
    return new PageHangError(`tab ${this.slot}: the page did not answer ${call} within ${PAGE_CALL_LIMIT_MS / 1000} s; its mirror says ${diagnosis}`);
  }

  /** Reloads the page (thawing it first is not needed: the new page is not frozen). */
  async reload(): Promise<void> {
    if (this.offline) await this.online();
    const stretch = this.going(Number.POSITIVE_INFINITY);
    this.endSession();
    try {
      await this.tab.reload();
      if (this.frozen) await this.thaw().catch(() => undefined);
      await this.booted();
    } finally {
      stretch.to = Date.now();
    }
  }

  /** Closes the tab as a person would; its proxy goes too. */
  async close(): Promise<void> {
    if (this.offline) await this.online();
    this.going(Number.POSITIVE_INFINITY);
    this.endSession();
    this.alive = false;
    await this.tab.close();
    this.frozen = false;
    await this.proxy.close();
  }

  /** Freezes the tab (where the engine can). */
  async freeze(): Promise<void> {
    this.frozen = true;
    await this.tab.freeze!(true);
  }

  /** Thaws a frozen tab. */
  async thaw(): Promise<void> {
    await this.tab.freeze!(false);
    this.frozen = false;
  }

  /** Takes the tab's network away with the engine's own emulation (where it has one). */
  async offlineNow(): Promise<void> {
    this.offline = true;
    await this.tab.setOffline!(true);
  }

  /** Gives the network back after {@link offlineNow}, and reads what the page reported meanwhile (its beacons were lost). */
  async online(): Promise<void> {
    if (!this.offline) return;
    await this.tab.setOffline!(false);
    this.offline = false;
    if (!this.frozen) await this.collectReports();
  }

  /** Reads every report the page made into the run's (a frozen page cannot answer: it is read once thawed). */
  async collectReports(): Promise<void> {
    if (this.session === undefined) return;
    this.context.collect(await this.call<PageReport[]>('reports'));
  }

  /**
   * After an action failed as if the page had navigated while the harness did not reload it: asks
   * the page which load it is. A new one means the engine reloaded the page by itself (WebKit does
   * after its web process stopped answering): the old session ended then, and true is returned.
   */
  async reloadedByItself(): Promise<boolean> {
    let now: string | undefined;
    // The page may still be loading again: ask until it answers (a while).
    for (const until = Date.now() + 10_000; now === undefined && Date.now() < until; ) {
      now = await this.tab.evaluate(() => (globalThis as unknown as { soak: { ready: Promise<string> } }).soak.ready).catch(() => undefined);
      if (now === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (now === undefined || now === this.session) return false;
    this.generation++;
    this.session = now;
    return true;
  }

  private endSession(): void {
    this.generation++;
    if (this.session !== undefined) this.context.ended.set(this.session, Date.now());
    this.session = undefined;
  }

  /** Notes, under the page's error reporter's id, that the harness is taking the page away from now until `to`. */
  private going(to: number): GoingStretch {
    const stretch = { from: Date.now(), to };
    if (this.errorsTab === undefined) return stretch;
    const stretches = this.context.going.get(this.errorsTab) ?? [];
    stretches.push(stretch);
    this.context.going.set(this.errorsTab, stretches);
    return stretch;
  }

  private async booted(): Promise<void> {
    this.session = await this.tab.evaluate(() => (globalThis as unknown as { soak: { ready: Promise<string> } }).soak.ready);
    // The id the page's error reporter gives its errors (kept in sessionStorage, so the same across reloads).
    this.errorsTab ??= (await this.tab.evaluate(() => sessionStorage.getItem('__pageErrorsTab'))) ?? undefined;
  }
}
