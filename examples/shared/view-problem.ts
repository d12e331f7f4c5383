/**
 * What a screen shows when it cannot show what it read: a record it cannot format, a query that
 * failed, a bug. Without this the screen stays empty and nobody knows why; with it, the person at
 * the counter reads what failed and what to do, and whoever helps them gets the technical line.
 */
import { h, replace } from './dom.js';

/** A view's failure, explained (the same words in both apps). */
export interface ViewProblem {
  /** What cannot be shown, in plain words: `The sales cannot be shown.` */
  reason: string;
  /** What the person can do. */
  advice: string;
  /** `Name: message` of what was thrown, for support. */
  detail: string;
}

/** Said under every view problem: the data is safe, what to try, whom to tell. */
const ADVICE =
  'The data on this device is safe and syncing goes on. Reload the page to try again; if this message comes back, ' +
  'tell whoever looks after this app and show them the line below.';

/** Explains a failure of the view that shows `what` (`the sales`, `the customers`). */
export function describeViewProblem(what: string, error: unknown): ViewProblem {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
  return { reason: `${what.charAt(0).toUpperCase()}${what.slice(1)} cannot be shown.`, advice: ADVICE, detail };
}

/** The notice of a view problem, with a button that reloads the page. */
export function viewProblem(what: string, error: unknown): HTMLElement {
  const problem = describeViewProblem(what, error);
  return h('div', { class: 'notice problem', role: 'alert', 'data-test': 'view-problem' },
    h('div', { class: 'problem-text' },
      h('strong', { 'data-test': 'view-problem-reason' }, problem.reason),
      ' ',
      h('span', null, problem.advice),
      h('div', { class: 'small muted', 'data-test': 'view-problem-detail' }, problem.detail)),
    h('button', { type: 'button', onclick: () => location.reload() }, 'Reload'));
}

/** What {@link showLive} subscribes to: a live query (`mirror.live(...)`). */
export interface LiveSource<T> {
  subscribe(observer: { next(value: T): void; error(error: unknown): void }): { unsubscribe(): void };
}

/**
 * Renders each result of a live query with `render`; when the query fails, or `render` throws,
 * puts the {@link viewProblem} notice where `showProblem` says (the view's own element) instead
 * of leaving it as it was, and reports the error on the console once (until a result renders
 * again). The next result that renders replaces the notice.
 */
export function showLive<T>(source: LiveSource<T>, what: string, render: (value: T) => void, showProblem: (notice: HTMLElement) => void): { unsubscribe(): void } {
  let reported: string | undefined;
  const fail = (error: unknown) => {
    showProblem(viewProblem(what, error));
    const detail = describeViewProblem(what, error).detail;
    if (detail === reported) return;
    reported = detail;
    console.error(`${what} cannot be shown:`, error);
  };
  return source.subscribe({
    next: (value) => {
      try {
        render(value);
        reported = undefined;
      } catch (error) {
        fail(error);
      }
    },
    error: fail,
  });
}

/** Shows the notice of a view that failed as a whole in `el` (its content replaced). */
export function showViewProblem(el: HTMLElement, what: string, error: unknown): void {
  replace(el, viewProblem(what, error));
  console.error(`${what} cannot be shown:`, error);
}
