/**
 * The tabs of a browser soak run: each new tab gets the next slot, a proxy of its own and the
 * soak app's address; the set knows which are open and picks one for an action.
 */
import type { EngineBrowser } from '../engines/index.js';
import type { PageReport } from './page/soak-page.js';
import type { ServiceWatch } from './service-watch.js';
import { type PageHangError, SoakTab, type TabContext } from './soak-tab.js';
import { TabProxy } from './tab-proxy.js';

/** Where the tabs' pages come from and report to. */
export interface TabSetOptions {
  browser: EngineBrowser;
  /** The app server's address (it serves the soak app). */
  appUrl: string;
  /** The report server's address. */
  reportsUrl: string;
  /** The simulator's base URL, which every proxy forwards to. */
  serviceUrl: string;
  /** The database name every tab's mirror opens. */
  dbName: string;
  /** The mirror's poll interval in the pages (ms). */
  pollMs: number;
  watch: ServiceWatch;
  /** Takes reports read from a page itself. */
  collect(reports: readonly PageReport[]): void;
  /** Told when a call into a page did not answer in time (see `SoakTab.call`). */
  hung(error: PageHangError): void;
}

/** Every tab of a run, open or closed. */
export class TabSet {
  readonly all: SoakTab[] = [];
  readonly context: TabContext;

  constructor(private readonly options: TabSetOptions) {
    this.context = {
      ended: new Map(),
      going: new Map(),
      collect: options.collect,
      hung: options.hung,
      pageUrl: (slot, api) => {
        const query = new URLSearchParams({ slot: String(slot), api, db: options.dbName, reports: options.reportsUrl, poll: String(options.pollMs) });
        return `${options.appUrl}?${query}`;
      },
    };
  }

  /** The open tabs, oldest first. */
  get open(): SoakTab[] {
    return this.all.filter((t) => t.alive);
  }

  /** Opens a new tab in the next slot and waits for its mirror to start. */
  async add(): Promise<SoakTab> {
    const slot = this.all.length + 1;
    const proxy = await TabProxy.start(slot, this.options.serviceUrl, this.options.watch);
    const tab = new SoakTab(slot, await this.options.browser.newTab(), proxy, this.context);
    this.all.push(tab);
    await tab.open();
    return tab;
  }

  /** The open tab at `pick` (0..1), or undefined when none is open; frozen ones only when `frozenToo`. */
  pick(pick: number, frozenToo = false): SoakTab | undefined {
    const pool = this.open.filter((t) => frozenToo || !t.frozen);
    return pool.length === 0 ? undefined : pool[Math.min(pool.length - 1, Math.floor(pick * pool.length))];
  }
}
