import { AuthError } from '../../errors/index.js';

/**
 * The tokens a mirror has used, counted: `setToken()` begins a new generation. An auth failure
 * of a run that began with a token replaced since is stale: the next run uses the new token, so
 * it is no reason to pause sync.
 */
export class TokenGenerations {
  #generation = 0;
  readonly #stale = new WeakSet<object>();

  /** A new token is in use. */
  bump(): void {
    this.#generation++;
  }

  /** Runs `fn`, marking an auth failure it meets after the token it began with was replaced. */
  async track<T>(fn: () => Promise<T>): Promise<T> {
    const generation = this.#generation;
    try {
      return await fn();
    } catch (error) {
      if (error instanceof AuthError && generation !== this.#generation) this.#stale.add(error);
      throw error;
    }
  }

  /** True for an auth failure {@link track} found stale. */
  isStale(error: unknown): boolean {
    return typeof error === 'object' && error !== null && this.#stale.has(error);
  }
}
