import { liveQuery } from 'dexie';
import { observableSymbol, type Observable } from './observable-value.js';

/**
 * A Dexie live query as the mirror's {@link Observable}: it re-runs `query` when the data it read
 * changes. Subscribing subscribes to Dexie's own observable; interop (`Symbol.observable`) hands
 * out this one.
 */
export function liveObservable<T>(query: () => T | Promise<T>): Observable<T> {
  const live = liveQuery(query);
  const observable: Observable<T> = {
    subscribe: (observer) => live.subscribe(observer),
    [observableSymbol]: () => observable,
  };
  return observable;
}
