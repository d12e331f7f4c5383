/** Something that receives values: a function or an RxJS-style observer. */
export type Observer<T> =
  | ((value: T) => void)
  | {
      /** Gets each value, the current one first. */
      next?: (value: T) => void;
      /** Part of the RxJS shape; the mirror's values never end in an error. */
      error?: (e: unknown) => void;
      /** Told when the value no longer changes (the mirror was closed). */
      complete?: () => void;
    };

/** A subscription that can be ended. */
export interface Subscription {
  /** Ends the subscription: its observer hears nothing more. */
  unsubscribe(): void;
  /** True once ended, by `unsubscribe()` or by the value's end. */
  readonly closed: boolean;
}

/** The minimal observable contract (TC39 / RxJS `from()` / Svelte stores compatible). */
export interface Observable<T> {
  /** Starts telling `observer` the values; returns the subscription that ends it. */
  subscribe(observer: Observer<T>): Subscription;
  /** The observable itself, for interop libraries (`from()` of RxJS). */
  [Symbol.observable](): Observable<T>;
}

declare global {
  interface SymbolConstructor {
    readonly observable: unique symbol;
  }
}

/** `Symbol.observable` where the runtime has it, else the `@@observable` key interop libraries also read. */
export const observableSymbol: typeof Symbol.observable =
  (typeof Symbol === 'function' && Symbol.observable) || ('@@observable' as unknown as typeof Symbol.observable);

/**
 * Reports an error thrown by a subscriber without letting it reach the code that set the value:
 * through the runtime's `reportError` (browsers, Deno, Bun: it shows as an uncaught error of its
 * own, and the page goes on), else on `console.error` (Node, where an error thrown from a timer
 * would end the process).
 */
function reportSubscriberError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error('pos-cloud-mirror: a status or progress subscriber threw:', error);
}

/** Calls one subscriber callback; what it throws is reported apart (see {@link reportSubscriberError}). */
function callIsolated<A extends unknown[]>(fn: ((...args: A) => void) | undefined, ...args: A): void {
  if (!fn) return;
  try {
    fn(...args);
  } catch (error) {
    reportSubscriberError(error);
  }
}

/**
 * A value that changes over time and tells its subscribers: the mirror's `status` and
 * `progress`. A new subscriber gets the current value at once. Compatible with
 * `Symbol.observable`, so RxJS `from(mirror.status)` works.
 *
 * A subscriber that throws neither stops the others nor reaches the code that set the value (the
 * sync engine): its error is reported on its own, through `globalThis.reportError` where the
 * runtime has it, else on `console.error`. After {@link complete} the value no longer changes, and
 * a new subscriber gets the last value and the end at once.
 */
export class ObservableValue<T> implements Observable<T> {
  #value: T;
  readonly #observers = new Set<{ next: ((value: T) => void) | undefined; complete: (() => void) | undefined }>();
  #completed = false;

  constructor(initial: T) {
    this.#value = initial;
  }

  /** The current value. */
  get value(): T {
    return this.#value;
  }

  /**
   * Sets a new value and tells every subscriber; one that throws does not stop the others and
   * does not make `set` throw (its error is reported apart). Ignored after {@link complete}.
   */
  set(value: T): void {
    if (this.#completed) return;
    this.#value = value;
    for (const observer of [...this.#observers]) callIsolated(observer.next, value);
  }

  /** Sets the value to `update(current)`. */
  update(update: (current: T) => T): void {
    this.set(update(this.#value));
  }

  /** Tells `observer` the current value at once, then every new one; returns the subscription that ends it. */
  subscribe(observer: Observer<T>): Subscription {
    const target = typeof observer === 'function' ? { next: observer } : observer;
    const entry = { next: target.next?.bind(target), complete: target.complete?.bind(target) };
    if (this.#completed) {
      // Already ended (a closed mirror): the last value, then the end, and nothing kept.
      callIsolated(entry.next, this.#value);
      callIsolated(entry.complete);
      return { unsubscribe: () => undefined, closed: true };
    }
    this.#observers.add(entry);
    let closed = false;
    callIsolated(entry.next, this.#value);
    return {
      unsubscribe: () => {
        closed = true;
        this.#observers.delete(entry);
      },
      get closed() {
        return closed;
      },
    };
  }

  /** Ends every subscription (on `close()`); the value stays as it was last set. */
  complete(): void {
    this.#completed = true;
    const observers = [...this.#observers];
    this.#observers.clear();
    for (const observer of observers) callIsolated(observer.complete);
  }

  /** The observable itself, for interop libraries (`from()` of RxJS). */
  declare [Symbol.observable]: () => Observable<T>;
}

// Where the runtime has no Symbol.observable, RxJS and others look for '@@observable'.
Object.defineProperty(ObservableValue.prototype, observableSymbol, {
  value(this: ObservableValue<unknown>) {
    return this;
  },
});

/**
 * A value that changes over time, as an app sees it: the current `value`, and `subscribe` (a new
 * subscriber gets the current value at once). Only the library sets it (`mirror.status`,
 * `mirror.progress`).
 */
export interface ReadonlyObservableValue<T> extends Observable<T> {
  /** The current value. */
  readonly value: T;
}

/**
 * `source` seen read-only: its value and its subscriptions, without `set`, `update` or
 * `complete`, so no app can change the library's own state (in JavaScript either).
 */
export function readonlyView<T>(source: ObservableValue<T>): ReadonlyObservableValue<T> {
  const view: ReadonlyObservableValue<T> = {
    get value() {
      return source.value;
    },
    subscribe: (observer) => source.subscribe(observer),
    // Where the runtime has no Symbol.observable, RxJS and others look for '@@observable'.
    [observableSymbol]: () => view,
  };
  return view;
}
