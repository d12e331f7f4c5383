/**
 * What a shop sells at a given time: a section chosen by its profile's weights, then one of that
 * section's products, the long-standing ones (the staples) far more often than newer ones, as a
 * till's sales are. Products that do not exist yet or were deleted by then are never picked.
 */
import type { Rng } from '../rng.js';
import type { Catalog } from './catalog.js';
import type { ShopProfile } from './shop-profiles.js';
import { countBefore } from './timeline.js';

/** Picks products for one kind of shop. */
export interface ProductPicker {
  /** A product of the profile available at time t (any available product when the profile has none). */
  pick(t: number, rng: Rng): number;
  /** The cheapest product of the profile available at time t, for an order that must stay small. */
  cheapest(t: number): number;
  /** Product indexes the profile sells, oldest first. */
  readonly products: readonly number[];
}

interface Section {
  weight: number;
  products: Int32Array;
  times: Float64Array;
}

/** Builds the picker of a profile over a catalogue of `count` products. */
export function createProductPicker(catalog: Catalog, profile: ShopProfile, count: number): ProductPicker {
  const bySection = new Map<string, number[]>();
  for (let p = 0; p < count; p++) {
    const section = catalog.sectionOf(p);
    if (!(section in profile.sells)) continue;
    let list = bySection.get(section);
    if (!list) bySection.set(section, (list = []));
    list.push(p);
  }
  const sections: Section[] = [...bySection].map(([name, list]) => {
    const products = Int32Array.from(list);
    return { weight: profile.sells[name] ?? 0, products, times: Float64Array.from(products, (p) => catalog.products.times[p] as number) };
  });
  const totalWeight = sections.reduce((sum, s) => sum + s.weight, 0);
  const all = sections.flatMap((s) => [...s.products]).sort((a, b) => a - b);
  const listed = new Map(all.map((p) => [p, catalog.priceAt(p, 0)]));
  const byPrice = [...all].sort((a, b) => (listed.get(a) as number) - (listed.get(b) as number) || a - b);

  const fromSection = (section: Section, t: number, rng: Rng): number => {
    const n = countBefore(section.times, t);
    if (n === 0) return -1;
    for (let attempt = 0; attempt < 6; attempt++) {
      // u² favours the oldest products of the section: a few staples sell most.
      const u = rng.next();
      const p = section.products[Math.floor(n * u * u)] as number;
      if (catalog.availableAt(p, t)) return p;
    }
    return -1;
  };

  return {
    products: all,
    pick(t, rng) {
      for (let attempt = 0; attempt < 8 && totalWeight > 0; attempt++) {
        let x = rng.next() * totalWeight;
        let section = sections[sections.length - 1] as Section;
        for (const s of sections) {
          x -= s.weight;
          if (x < 0) {
            section = s;
            break;
          }
        }
        const p = fromSection(section, t, rng);
        if (p >= 0) return p;
      }
      const staple = all.find((p) => catalog.availableAt(p, t));
      return staple ?? catalog.productAt(t, rng);
    },
    cheapest(t) {
      for (const p of byPrice) if (catalog.availableAt(p, t)) return p;
      return 0;
    },
  };
}
