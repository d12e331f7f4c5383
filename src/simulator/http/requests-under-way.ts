/**
 * The requests the server is handling now. A client that gives up on a request (an abort, its own
 * time limit, a closed app) does not stop the server: the request is still read, delayed and
 * applied. {@link RequestsUnderWay.idle} waits for those, so a test can tell when nothing sent so
 * far can still change the data.
 */
export class RequestsUnderWay {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** How many requests are being handled now. */
  get size(): number {
    return this.count;
  }

  /** A request arrived. */
  begin(): void {
    this.count++;
  }

  /** A request was answered, dropped or failed. */
  end(): void {
    this.count--;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no request is being handled (at once when none is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
