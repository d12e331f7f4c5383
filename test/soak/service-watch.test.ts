import { describe, expect, it } from 'vitest';
import { ServiceWatch } from '../../scripts/soak-browser/service-watch.js';

describe("the browser soak's traffic record", () => {
  it('knows a value a POST carried, whether the wire sent the id and the value as numbers or as text', () => {
    const watch = new ServiceWatch();
    watch.sawPost(1, 'warehouses', JSON.stringify([{ id: 8555519745831810, name: 'd1#1514', warehouse_bitmask: 3 }]), 1);
    watch.sawPost(2, 'customers', '[{"id":"10210851071493200123","note_internal":"d1#7"}]', 2);
    expect(watch.postedValue('warehouses', '8555519745831810', 'name', 'd1#1514')).toBe(true);
    expect(watch.postedValue('warehouses', '8555519745831810', 'warehouse_bitmask', '3')).toBe(true);
    expect(watch.postedValue('customers', '10210851071493200123', 'note_internal', 'd1#7')).toBe(true);
  });

  it('does not take a value no POST carried: another value, another field, another record or collection', () => {
    const watch = new ServiceWatch();
    watch.sawPost(1, 'warehouses', JSON.stringify([{ id: 5, name: 'd1#1514' }]), 1);
    watch.sawPost(1, 'warehouses', 'not json', 2);
    expect(watch.postedValue('warehouses', '5', 'name', 'd1#1515')).toBe(false);
    expect(watch.postedValue('warehouses', '5', 'note', 'd1#1514')).toBe(false);
    expect(watch.postedValue('warehouses', '6', 'name', 'd1#1514')).toBe(false);
    expect(watch.postedValue('stockup', '5', 'name', 'd1#1514')).toBe(false);
  });
});
