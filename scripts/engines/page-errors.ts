/**
 * What went wrong in a page, reported to the server that serves it, so that a tab that is closed
 * or dies a moment later cannot take the evidence with it, and so that it works the same in every
 * engine (WebDriver classic, which drives WebKit, has no console events).
 *
 * The app server puts {@link pageErrorsScript} first in every HTML page it serves when asked to
 * (`createAppServer({ pageErrors })`): uncaught errors, unhandled rejections and `console.error`
 * are sent to {@link PAGE_ERRORS_PATH} with `navigator.sendBeacon`, which outlives the page.
 */

/** One thing that went wrong in a page. */
export interface PageError {
  /** The tab it happened in: an id the page keeps in `sessionStorage`, so a reload keeps it. */
  tab: string;
  /** The page's address at the time. */
  url: string;
  kind: 'error' | 'unhandledrejection' | 'console.error';
  message: string;
  /** The first lines of the error's stack, when it is an `Error` that has one. */
  stack?: string;
  /** When it happened, by the page's clock (`Date.now()`, the same machine's as the test's). */
  at?: number;
}

/** Where pages send their {@link PageError}s. */
export const PAGE_ERRORS_PATH = '/__page-errors';

/**
 * The script the app server puts first in each page it serves. It is written as source text, not
 * as a function turned into text: a transpiler that adds helpers to functions (tsx keeps names
 * with `__name(...)`) would leave calls to them that the page does not have.
 */
export function pageErrorsScript(): string {
  return `(() => {
  const path = ${JSON.stringify(PAGE_ERRORS_PATH)};
  let tab = sessionStorage.getItem('__pageErrorsTab');
  if (!tab) {
    tab = Math.random().toString(36).slice(2, 10);
    sessionStorage.setItem('__pageErrorsTab', tab);
  }
  const seen = (window.__pageErrors = []);
  const describe = (value) => {
    try {
      return describeValue(value);
    } catch (error) {
      return 'a value that could not be described (' + String(error) + ')';
    }
  };
  const describeValue = (value) => {
    if (value instanceof Error) return value.name + ': ' + value.message;
    if (typeof value === 'string') return value;
    // An error-like object of another realm or kind (a DOMException where it is no Error, an IDB event): its kind and what it says.
    const kind = Object.prototype.toString.call(value);
    const said = value && typeof value === 'object' ? [value.name, value.message, value.type, value.target && Object.prototype.toString.call(value.target)].filter(Boolean).join(': ') : '';
    let json;
    try { json = JSON.stringify(value); } catch { json = String(value); }
    return said ? kind + ' ' + said + (value.stack ? ' ' + String(value.stack).split('\\n').slice(0, 4).join(' | ') : '') : kind === '[object Object]' ? json : kind + ' ' + json;
  };
  const stackOf = (value) => {
    try {
      return value instanceof Error && value.stack ? String(value.stack).split('\\n').slice(0, 8).join(' | ') : undefined;
    } catch {
      return undefined;
    }
  };
  const report = (kind, message, error) => {
    const entry = { tab, url: location.href, kind, message, stack: stackOf(error), at: Date.now() };
    seen.push(entry);
    navigator.sendBeacon(path, JSON.stringify(entry));
  };
  addEventListener('error', (event) => report('error', event.error ? describe(event.error) : event.message, event.error));
  addEventListener('unhandledrejection', (event) => report('unhandledrejection', describe(event.reason), event.reason));
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    report('console.error', args.map(describe).join(' '));
    consoleError(...args);
  };
})();`;
}
