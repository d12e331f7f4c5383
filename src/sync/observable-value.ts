/** Something that receives values: a function or an RxJS-style observer. */
export type Observer<T> = ((value: T) => void) | { next?: (value: T) => void; error?: (e: unknown) => void; complete?: () => void };

/** A subscription that can be ended. */
export interface Subscription {
  unsubscribe(): void;
  readonly closed: boolean;
}

/** The minimal observable contract (TC39 / RxJS `from()` / Svelte stores compatible). */
export interface Observable<T> {
  subscribe(observer: Observer<T>): Subscription;
  [Symbol.observable](): Observable<T>;
}

declare global {
  interface SymbolConstructor {
    readonly observable: unique symbol;
  }
}

const observableSymbol: typeof Symbol.observable =
  (typeof Symbol === 'function' && Symbol.observable) || ('@@observable' as unknown as typeof Symbol.observable);

/**
 * A value that changes over time and tells its subscribers: the mirror's `status` and
 * `progress`. A new subscriber gets the current value at once. Compatible with
 * `Symbol.observable`, so RxJS `from(mirror.status)` works.
 */
export class ObservableValue<T> implements Observable<T> {
  #value: T;
  readonly #observers = new Set<{ next: ((value: T) => void) | undefined; complete: (() => void) | undefined }>();

  constructor(initial: T) {
    this.#value = initial;
  }

  /** The current value. */
  get value(): T {
    return this.#value;
  }

  /** Sets a new value and tells every subscriber. */
  set(value: T): void {
    this.#value = value;
    for (const observer of [...this.#observers]) observer.next?.(value);
  }

  /** Sets the value to `update(current)`. */
  update(update: (current: T) => T): void {
    this.set(update(this.#value));
  }

  subscribe(observer: Observer<T>): Subscription {
    const target = typeof observer === 'function' ? { next: observer } : observer;
    const entry = { next: target.next?.bind(target), complete: target.complete?.bind(target) };
    this.#observers.add(entry);
    let closed = false;
    entry.next?.(this.#value);
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

  /** Ends every subscription (on `close()`). */
  complete(): void {
    for (const observer of [...this.#observers]) observer.complete?.();
    this.#observers.clear();
  }

  declare [Symbol.observable]: () => Observable<T>;
}

// Where the runtime has no Symbol.observable, RxJS and others look for '@@observable'.
Object.defineProperty(ObservableValue.prototype, observableSymbol, {
  value(this: ObservableValue<unknown>) {
    return this;
  },
});
