// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeViewProblem, showLive, type LiveSource } from '../../examples/shared/view-problem.js';

/** A live query the test drives: each `emit` is a new result, `fail` an error of the query. */
function liveSource<T>() {
  let observer: { next(value: T): void; error(error: unknown): void } | undefined;
  const source: LiveSource<T> = {
    subscribe(o) {
      observer = o;
      return { unsubscribe: () => (observer = undefined) };
    },
  };
  return { source, emit: (value: T) => observer?.next(value), fail: (error: unknown) => observer?.error(error), subscribed: () => observer !== undefined };
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('showLive', () => {
  it('says in the view what cannot be shown, what to do and what was thrown, instead of leaving it as it was', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = document.body.appendChild(document.createElement('section'));
    const live = liveSource<number>();
    showLive(live.source, 'the sales', (n) => {
      if (n < 0) throw new RangeError(`no sale of ${n}`);
      view.textContent = `sales: ${n}`;
    }, (notice) => view.replaceChildren(notice));

    live.emit(3);
    expect(view.textContent).toBe('sales: 3');
    live.emit(-1);
    expect(view.querySelector('[data-test=view-problem-reason]')?.textContent).toBe('The sales cannot be shown.');
    expect(view.querySelector('[data-test=view-problem]')?.textContent).toContain('Reload the page to try again');
    expect(view.querySelector('[data-test=view-problem-detail]')?.textContent).toBe('RangeError: no sale of -1');
    expect(view.querySelector('[data-test=view-problem]')?.getAttribute('role')).toBe('alert');
    // Reported once, not at every result that fails the same way.
    live.emit(-1);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[0]).toBe('the sales cannot be shown:');

    // The next result that renders replaces the notice.
    live.emit(4);
    expect(view.textContent).toBe('sales: 4');
    live.emit(-2);
    expect(errors).toHaveBeenCalledTimes(2);
  });

  it('shows a failed query the same way', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = document.body.appendChild(document.createElement('section'));
    const live = liveSource<number>();
    const sub = showLive(live.source, 'the customers', () => undefined, (notice) => view.replaceChildren(notice));
    live.fail(new DOMException('The database connection is closing.', 'InvalidStateError'));
    expect(view.querySelector('[data-test=view-problem-reason]')?.textContent).toBe('The customers cannot be shown.');
    expect(view.querySelector('[data-test=view-problem-detail]')?.textContent).toBe('InvalidStateError: The database connection is closing.');
    sub.unsubscribe();
    expect(live.subscribed()).toBe(false);
  });
});

describe('describeViewProblem', () => {
  it('names a thrown value that is not an Error', () => {
    expect(describeViewProblem('the conflicts', 'bad record').detail).toBe('Error: bad record');
  });
});
