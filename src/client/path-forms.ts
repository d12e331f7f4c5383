import { isHttpError } from '../errors/index.js';
import type { RequestSpec } from './request-spec.js';

/** The two generations of a path (spec: Endpoints, Path forms). */
export interface PathPair<S> {
  /** The path form of today. */
  current: S;
  /** The earlier form (`<collection>/list`, `orders/latest`). */
  legacy: S;
}

/**
 * The two forms of a list path (spec: Path forms): `GET <name>` and the earlier `GET <name>/list`,
 * both with `query` when one is given.
 */
export function listPathPair(name: string, query?: Readonly<Record<string, string>>): PathPair<RequestSpec> {
  const current: RequestSpec = query === undefined ? { method: 'GET', path: name } : { method: 'GET', path: name, query };
  return { current, legacy: { ...current, path: `${name}/list` } };
}

/** Remembers, per endpoint, which path form the server speaks. */
export interface PathForms {
  /**
   * Sends with the form known to work for `endpoint`, the current one while nothing is known.
   * While the form is unknown, a 404 of the current form tries the earlier one; when that works
   * (and `proves` accepts its result) the endpoint is remembered as speaking the earlier form.
   * Once the current form has worked, a 404 is about the record asked for and is thrown as is.
   * When both forms answer 404 the first 404 is thrown.
   */
  send<S, T>(endpoint: string, pair: PathPair<S>, attempt: (spec: S) => Promise<T>, proves?: (result: T) => boolean): Promise<T>;
  /** The form known for `endpoint`, or `unknown` before the first answer. */
  formOf(endpoint: string): 'current' | 'legacy' | 'unknown';
}

/** Creates an empty {@link PathForms} memory (one per client). */
export function createPathForms(): PathForms {
  const known = new Map<string, 'current' | 'legacy'>();
  return {
    formOf: (endpoint) => known.get(endpoint) ?? 'unknown',
    async send(endpoint, pair, attempt, proves = () => true) {
      const form = known.get(endpoint);
      if (form === 'current') return attempt(pair.current);
      try {
        const result = await attempt(form === 'legacy' ? pair.legacy : pair.current);
        known.set(endpoint, form ?? 'current');
        return result;
      } catch (error) {
        if (!isHttpError(error) || error.status !== 404) throw error;
        // An earlier-form server may since have been upgraded (legacy 404), or never had today's form.
        const other = form === 'legacy' ? 'current' : 'legacy';
        let result;
        try {
          result = await attempt(pair[other]);
        } catch (second) {
          throw isHttpError(second) && second.status === 404 ? error : second;
        }
        if (proves(result)) known.set(endpoint, other);
        return result;
      }
    },
  };
}
