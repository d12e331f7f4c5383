import { useLiveQuery as useDexieLiveQuery } from 'dexie-react-hooks';
import type { Mirror } from '../mirror/mirror.js';
import { useMirror } from './mirror-context.js';

/**
 * A Dexie live query on the provider's mirror, through `dexie-react-hooks`' `useLiveQuery`: the
 * component re-renders when the data the query read changes (a pull, an edit in this or another
 * tab), offline included. Until the mirror exists and the first result is in, it returns
 * `defaultResult` (`undefined` if not given). As with Dexie's hook, `deps` lists what the query
 * reads from the component (props, state); the mirror is added to them here.
 *
 * ```tsx
 * const products = useLiveQuery((mirror) => mirror.query.searchProducts(text), [text], []);
 * ```
 */
export function useLiveQuery<T>(query: (mirror: Mirror) => T | Promise<T>, deps?: unknown[]): T | undefined;
export function useLiveQuery<T, D>(query: (mirror: Mirror) => T | Promise<T>, deps: unknown[], defaultResult: D): T | D;
export function useLiveQuery<T, D>(query: (mirror: Mirror) => T | Promise<T>, deps: unknown[] = [], defaultResult?: D): T | D | undefined {
  const mirror = useMirror();
  return useDexieLiveQuery<T | D | undefined, D | undefined>(() => (mirror ? query(mirror) : defaultResult), [mirror, ...deps], defaultResult);
}
