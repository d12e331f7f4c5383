import { afterEach, describe, expect, it, vi } from 'vitest';
import { ObservableValue } from '../../src/mirror/observable-value.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ObservableValue', () => {
  it('gives a new subscriber the current value, then every change', () => {
    const value = new ObservableValue(1);
    const seen: number[] = [];
    const sub = value.subscribe((v) => seen.push(v));
    value.set(2);
    value.update((v) => v + 1);
    sub.unsubscribe();
    value.set(9);
    expect(seen).toEqual([1, 2, 3]);
    expect(sub.closed).toBe(true);
  });

  it('accepts observer objects and completes them on complete()', () => {
    const value = new ObservableValue('a');
    const events: string[] = [];
    value.subscribe({ next: (v) => events.push(v), complete: () => events.push('done') });
    value.complete();
    value.set('b');
    expect(events).toEqual(['a', 'done']);
  });

  it('tells every subscriber even when one throws, and reports that error apart instead of throwing from set()', () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error));
    const value = new ObservableValue(0);
    const seen: number[] = [];
    value.subscribe((v) => {
      if (v === 1) throw new TypeError('broken view');
    });
    value.subscribe((v) => seen.push(v));
    expect(() => value.set(1)).not.toThrow();
    expect(seen).toEqual([0, 1]);
    expect(value.value).toBe(1);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(TypeError);
  });

  it('reports a subscriber error on console.error where the runtime has no reportError (Node), never throwing it', async () => {
    vi.stubGlobal('reportError', undefined);
    const logged: unknown[][] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    try {
      const value = new ObservableValue(0);
      value.subscribe((v) => {
        if (v === 1) throw new TypeError('broken view');
      });
      expect(() => value.set(1)).not.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 5)); // nothing is thrown later from a timer either
      expect(logged).toHaveLength(1);
      expect(logged[0]?.[0]).toMatch(/subscriber threw/);
      expect(logged[0]?.[1]).toBeInstanceOf(TypeError);
    } finally {
      spy.mockRestore();
    }
  });

  it('gives a subscriber that comes after complete() the last value and the end at once, and keeps nothing', () => {
    const value = new ObservableValue('idle');
    value.complete();
    const events: string[] = [];
    const subscription = value.subscribe({ next: (v) => events.push(v), complete: () => events.push('complete') });
    expect(events).toEqual(['idle', 'complete']);
    expect(subscription.closed).toBe(true);
  });

  it('keeps its last value after complete()', () => {
    const value = new ObservableValue('closed');
    value.complete();
    value.set('error');
    expect(value.value).toBe('closed');
  });

  it('exposes itself through the interop symbol RxJS looks for', () => {
    const value = new ObservableValue(0);
    const key = (Symbol as { observable?: symbol }).observable ?? '@@observable';
    const interop = (value as unknown as Record<PropertyKey, () => unknown>)[key];
    expect(typeof interop).toBe('function');
    expect(interop!.call(value)).toBe(value);
  });
});
