import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { ID_EPOCH, IDS_PER_MS, createIdGenerator, decodeId } from '../../src/ids/index.js';

const T = Date.UTC(2026, 2, 1, 12, 0, 0);

describe('createIdGenerator', () => {
  it('gives the first id of a millisecond the random slot of the reference algorithm', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 0, max: 63 }), (draw, table) => {
        const id = createIdGenerator({ clock: () => T, random: () => draw }).generate(table);
        const { createdAt, tableId, random } = decodeId(id);
        expect({ createdAt, tableId }).toEqual({ createdAt: T, tableId: table });
        expect(BigInt(id) % 10n).toBe(0n);
        // floor(draw * 512) moved down to the nearest multiple-of-10 id, or up to the first one.
        const raw = Math.floor(draw * 512);
        expect(random <= raw ? raw - random < 10 : random < 10).toBe(true);
      }),
    );
  });

  it('packs a burst into consecutive slots and borrows the next millisecond when one is full', () => {
    const generator = createIdGenerator({ clock: () => T, random: () => 0.5 });
    const ids = Array.from({ length: 1000 }, () => BigInt(generator.generate('orders')));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    const perMs = new Map<number, number>();
    for (const id of ids) {
      const { createdAt, tableId } = decodeId(id);
      expect(tableId).toBe(7);
      expect(id % 10n).toBe(0n);
      perMs.set(createdAt, (perMs.get(createdAt) ?? 0) + 1);
    }
    const times = [...perMs.keys()];
    expect(times[0]).toBe(T);
    // Every borrowed millisecond but the last is filled: 51 or 52 ids.
    for (const ms of times.slice(1, -1)) expect(perMs.get(ms)).toBeGreaterThanOrEqual(IDS_PER_MS);
    // The stated bound: at most ceil(n / 51) ms ahead of the clock.
    expect(Math.max(...times) - T).toBeLessThanOrEqual(Math.ceil(ids.length / IDS_PER_MS));
  });

  it('never goes backwards when the clock does', () => {
    let now = T;
    const generator = createIdGenerator({ clock: () => now, random: () => 0.3 });
    const seen: bigint[] = [];
    for (const step of [0, 5, 0, -1, -1000, -60_000, 2, 70_000, -3_600_000, 1]) {
      now += step;
      seen.push(BigInt(generator.generate(22)));
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]! > seen[i - 1]!).toBe(true);
    // After the jump back by an hour, ids stay at the latest time reached, not the clock's.
    const last = decodeId(seen[seen.length - 1]!).createdAt;
    expect(last).toBeGreaterThanOrEqual(T + 5 + 2 + 70_000 - 1_000 - 60_000 - 1);
  });

  it('takes the clock from opts.now when given, with the same monotonic rule', () => {
    // A fixed draw: with a random one, a last-slot first id would send the next one to T + 10_001.
    const generator = createIdGenerator({ clock: () => T, random: () => 0.5 });
    const later = generator.generate('customers', { now: T + 10_000 });
    expect(decodeId(later).createdAt).toBe(T + 10_000);
    const earlier = generator.generate('customers', { now: T });
    expect(BigInt(earlier) > BigInt(later)).toBe(true);
    expect(decodeId(earlier).createdAt).toBe(T + 10_000);
  });

  it('keeps separate state per table and per generator', () => {
    const generator = createIdGenerator({ clock: () => T, random: () => 0 });
    const first = decodeId(generator.generate('orders'));
    const other = decodeId(generator.generate('products'));
    expect(first.createdAt).toBe(T);
    expect(other).toMatchObject({ createdAt: T, tableId: 11 });
    expect(decodeId(createIdGenerator({ clock: () => T, random: () => 0 }).generate('orders'))).toEqual(first);
  });

  it('rejects a random source that does not return a number in [0, 1)', () => {
    for (const bad of [1, -0.1, Number.NaN, '0.5']) {
      const generator = createIdGenerator({ clock: () => T, random: () => bad as number });
      expect(() => generator.generate('orders')).toThrow(ValidationError);
      expect(() => generator.generate('orders')).toThrow(/random must return a number in \[0, 1\)/);
    }
  });

  it('rejects a clock reading before the id epoch or not a number', () => {
    for (const bad of [ID_EPOCH - 1, Number.NaN, Number.POSITIVE_INFINITY, '2026']) {
      const generator = createIdGenerator({ clock: () => bad as number });
      expect(() => generator.generate('orders')).toThrow(/generateId: now must be a time in ms/);
    }
  });
});
