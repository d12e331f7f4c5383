import { describe, expect, it } from 'vitest';
import { dayEvents, type DayEvent } from '../../scripts/soak-browser/day-shop.js';

function take(seed: number, n: number): DayEvent[] {
  const events = dayEvents(seed);
  return Array.from({ length: n }, () => events.next().value);
}

describe('day-shop', () => {
  it('draws the same day from the same seed, and another from another', () => {
    expect(take(5, 50)).toEqual(take(5, 50));
    expect(take(5, 50)).not.toEqual(take(6, 50));
  });

  it('draws only the back office at a shop pace and a few short network cuts', () => {
    const day = take(1, 2_000);
    expect(new Set(day.map((e) => e.kind))).toEqual(new Set(['register-edit', 'register-delivery', 'register-remove', 'cut-tab']));
    const cuts = day.filter((e) => e.kind === 'cut-tab');
    expect(cuts.length).toBeGreaterThan(20);
    expect(cuts.length).toBeLessThan(120);
    for (const cut of cuts) expect(cut.ms).toBeLessThanOrEqual(8_000);
    for (const e of day) expect(e.waitMs).toBeGreaterThanOrEqual(4_000);
  });
});
