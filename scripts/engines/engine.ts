/**
 * One shape for the three browser engines the package is proven in (Chromium, Firefox, WebKit),
 * so that a test, a benchmark or the browser soak is written once and runs in each. Every engine
 * is the real one from Debian's packages, driven through a well-kept client of its automation
 * protocol: Chromium by playwright-core (CDP), Firefox by puppeteer-core (WebDriver BiDi), WebKit
 * (WebKitGTK's MiniBrowser) by webdriverio (W3C WebDriver, through WebKitWebDriver, under Xvfb).
 *
 * What a page does is always page code (`evaluate`), so it is the same in every engine; what an
 * engine cannot do (emulate being offline, freeze one tab) is absent from its tab, and callers
 * fall back to what works everywhere (cutting the server, suspending the browser's processes).
 */

/** The engines, by the name of their family. */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** Every engine, in the order the suites run them. */
export const ENGINE_NAMES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** How a browser is started. */
export interface LaunchOptions {
  /**
   * The language the browser reports (`navigator.language`) and formats with, as a device set to it
   * would: a BCP 47 tag (`en-US`, `cs-CZ`), or a POSIX locale name as some platforms report it
   * (`C`: WebKitGTK started under `LANG=C.UTF-8` says `navigator.language === "C"`, a tag `Intl`
   * refuses). Only WebKit can be started under a POSIX name.
   * @default 'en-US'
   */
  locale?: string;
  /** IANA time zone of the browser. @default 'Europe/Prague' */
  timezone?: string;
  /** Width and height of each tab's viewport. @default { width: 1280, height: 860 } */
  viewport?: { width: number; height: number };
  /**
   * The most an origin may store (bytes), as a nearly full disk leaves it, where the engine can be
   * told: Chromium per origin (CDP `Storage.overrideQuotaForOrigin`, set as a tab opens an
   * origin), Firefox for all of temporary storage at launch (the pref
   * `dom.quotaManager.temporaryStorage.fixedLimit`, whole KiB; below 10 MiB one origin may use
   * all of it). WebKitGTK's MiniBrowser offers no limit (automation runs an ephemeral session
   * whose IndexedDB lives in memory): launching WebKit with this option is an error.
   * @default the engine's own quota
   */
  storageLimit?: number;
}

/** A running browser with one profile: its tabs share IndexedDB, Web Locks and BroadcastChannel. */
export interface EngineBrowser {
  readonly engine: EngineName;
  /** Product and version as the browser reports it, e.g. `Firefox 153.7.0esr`. */
  readonly version: string;
  /**
   * The profile's folder on disk, where the engine keeps one the layer made (Chromium, Firefox):
   * what its IndexedDB takes there can be measured. WebKit under WebDriver keeps none (an
   * ephemeral session).
   */
  readonly profileDir?: string;
  /** Opens a new tab (a window in WebKit) on `about:blank`. */
  newTab(): Promise<EngineTab>;
  /**
   * Stops (`true`) or resumes (`false`) every page process of the browser with SIGSTOP/SIGCONT: a
   * laptop lid closed and opened. Timers, network answers and page code all wait; nothing is lost.
   */
  suspend(suspended: boolean): Promise<void>;
  /**
   * The processes that run the browser's pages now (process ids, read from `/proc`): Chromium's
   * renderers, Firefox's web content processes, WebKit's `WebKitWebProcess`es. The ones
   * {@link suspend} stops, and whose memory a day at the register reads (`memoryOf`).
   */
  pageProcesses(): number[];
  /**
   * Kills the process that serves the browser's IndexedDB, where it runs apart from the browser
   * and the pages, as iOS ends WebKit's when an app goes to the background: WebKit's
   * `WebKitNetworkProcess`, in the WebKit driven through its inspector (`launchInspectedWebKit`;
   * under WebKitWebDriver the kill ends the WebDriver session). One WebKit started less than 1.5 s
   * ago is killed once it is that old (killing one WebKitGTK is still starting aborts the whole
   * browser). Resolves with how many processes it killed. Absent elsewhere: Chromium serves IndexedDB from its browser process (killing its
   * storage service's utility process leaves every connection as it was), Firefox from its parent
   * process.
   */
  killStorage?(): Promise<number>;
  /** Closes every tab and the browser, and removes its profile. */
  close(): Promise<void>;
}

/**
 * Defined in every page before its own scripts: code run through tsx keeps function names with
 * calls to an `__name` helper, which a function sent to `evaluate` carries into the page.
 */
export const NAME_HELPER = 'globalThis.__name ??= (target) => target;';

/** A value that crosses into a page and back: JSON-like data. */
export type PageValue = string | number | boolean | null | undefined | PageValue[] | { [key: string]: PageValue };

/** One tab of an {@link EngineBrowser}. */
export interface EngineTab {
  readonly engine: EngineName;
  /** Navigates and waits for the page's `load`. */
  goto(url: string): Promise<void>;
  /** Reloads and waits for the page's `load`. */
  reload(): Promise<void>;
  /**
   * Runs `fn(arg)` in the page and returns its (awaited) result. `fn` is serialised: it must not
   * close over anything of the caller, and its argument and result must be JSON-like.
   */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Runs a classic script in the page (a bundle from `bundleForBrowser`). */
  addScript(code: string): Promise<void>;
  /** Clicks the first element matching `selector`. */
  click(selector: string): Promise<void>;
  /** Replaces the value of the input matching `selector` as typing would (input events fire). */
  fill(selector: string, value: string): Promise<void>;
  /** Focuses the element matching `selector` and presses `key` (a key name: `Enter`, `Tab`) on the real keyboard. */
  press(selector: string, key: string): Promise<void>;
  /** Saves a PNG of the page. */
  screenshot(path: string): Promise<void>;
  /** Emulates this tab losing (`true`) and regaining its network, where the engine can. */
  setOffline?(offline: boolean): Promise<void>;
  /**
   * Freezes (`true`) and thaws this tab, where the engine can (Chromium: its script is paused, so no
   * timer, network answer or storage callback runs until it thaws; what it holds stays held).
   */
  freeze?(frozen: boolean): Promise<void>;
  /**
   * Sends one Chrome DevTools Protocol command to this tab's page and resolves with its result
   * (Chromium only): for what no engine-neutral call offers, such as the CPU profiler the browser
   * benchmark reads (`Profiler.start`, `Profiler.stop`).
   */
  cdp?(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Closes the tab as a person would (the page gets no chance to finish what it was doing). */
  close(): Promise<void>;
}
