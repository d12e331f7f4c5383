import { Component, type ReactNode } from 'react';
import { describeViewProblem } from '../shared/view-problem.js';

interface ViewBoundaryProps {
  /** What the part shows, for the message that says it cannot: `the counts of this warehouse`. */
  what: string;
  /** The data the part shows: when it changes, a failed part renders anew, as a live view does with its next result. */
  retryOn?: unknown;
  children: ReactNode;
}

/**
 * Keeps a screen, or a part of one, from going blank: an error thrown while it renders (a record it
 * cannot format, a bug) shows what failed, what to do and the technical line in its place, the
 * same words as the companion's views. The rest of the screen keeps working; "Try again" renders
 * the part anew (with the data as it is now), and so does new data (`retryOn`). React itself
 * reports the error on the console.
 */
export class ViewBoundary extends Component<ViewBoundaryProps, { failed: boolean; error: unknown }> {
  override state = { failed: false, error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  override componentDidUpdate(before: ViewBoundaryProps): void {
    if (this.state.failed && before.retryOn !== this.props.retryOn) this.setState({ failed: false, error: undefined });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const problem = describeViewProblem(this.props.what, this.state.error);
    return (
      <div className="notice problem" role="alert" data-test="view-problem">
        <div className="problem-text">
          <strong data-test="view-problem-reason">{problem.reason}</strong> <span>{problem.advice}</span>
          <div className="small muted" data-test="view-problem-detail">
            {problem.detail}
          </div>
        </div>
        <button type="button" onClick={() => this.setState({ failed: false, error: undefined })}>
          Try again
        </button>
      </div>
    );
  }
}
