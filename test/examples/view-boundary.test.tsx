// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ViewBoundary } from '../../examples/inventory-count/view-boundary.js';

/** A part that cannot show a negative count. */
function Counts({ rows }: { rows: number[] }) {
  return <ul>{rows.map((n) => <li key={n}>{n < 0 ? new Intl.DateTimeFormat('en').format(Number.MAX_SAFE_INTEGER) : String(n)}</li>)}</ul>;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ViewBoundary', () => {
  it('shows in the part’s place what cannot be shown and what was thrown, leaving the rest of the screen', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <main>
        <p>scan box</p>
        <ViewBoundary what="the counts of this warehouse">
          <Counts rows={[1, -1]} />
        </ViewBoundary>
      </main>,
    );
    expect(screen.getByText('scan box')).toBeTruthy();
    expect(screen.getByRole('alert').querySelector('[data-test=view-problem-reason]')?.textContent).toBe('The counts of this warehouse cannot be shown.');
    expect(screen.getByRole('alert').querySelector('[data-test=view-problem-detail]')?.textContent).toMatch(/^RangeError: /);
  });

  it('renders the part anew when its data changes, as a live view does with its next result', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bad = [1, -1];
    const view = (rows: number[]) => (
      <ViewBoundary what="the counts of this warehouse" retryOn={rows}>
        <Counts rows={rows} />
      </ViewBoundary>
    );
    const { rerender } = render(view(bad));
    expect(screen.queryByRole('alert')).not.toBeNull();
    // The same data again keeps the message; new data is tried.
    rerender(view(bad));
    expect(screen.queryByRole('alert')).not.toBeNull();
    rerender(view([1, 2]));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('2')).toBeTruthy();
  });

  it('tries again when asked', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let rows = [-1];
    const Live = () => <Counts rows={rows} />;
    render(
      <ViewBoundary what="the products counted">
        <Live />
      </ViewBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeNull();
    rows = [5];
    fireEvent.click(screen.getByText('Try again'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('5')).toBeTruthy();
  });
});
