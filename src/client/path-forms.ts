import { isHttpError } from '../errors/index.js';

/** The two generations of a path (spec: Endpoints, Path forms). */
export interface PathPair<S> {
  /** The path form of today. */
  current: S;
  /** The earlier form (`<collection>/list`, `orders/latest`). */
  legacy: S;
}

/** Remembers, per endpoint, which path form the server speaks. */
export interface PathForms {
  /**
   * Sends with the form last known to work for `endpoint` (the current one at first); on 404
   * tries the other form once, and remembers it when it works. When both answer 404 the first
   * 404 is thrown.
   */
  send<S, T>(endpoint: string, pair: PathPair<S>, attempt: (spec: S) => Promise<T>): Promise<T>;
  /** The form in use for `endpoint`. */
  formOf(endpoint: string): 'current' | 'legacy';
}

/** Creates an empty {@link PathForms} memory (one per client). */
export function createPathForms(): PathForms {
  const legacyEndpoints = new Set<string>();
  return {
    formOf: (endpoint) => (legacyEndpoints.has(endpoint) ? 'legacy' : 'current'),
    async send(endpoint, pair, attempt) {
      const useLegacy = legacyEndpoints.has(endpoint);
      try {
        return await attempt(useLegacy ? pair.legacy : pair.current);
      } catch (error) {
        if (!isHttpError(error) || error.status !== 404) throw error;
        let result;
        try {
          result = await attempt(useLegacy ? pair.current : pair.legacy);
        } catch (second) {
          throw isHttpError(second) && second.status === 404 ? error : second;
        }
        if (useLegacy) legacyEndpoints.delete(endpoint);
        else legacyEndpoints.add(endpoint);
        return result;
      }
    },
  };
}
