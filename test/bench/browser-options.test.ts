import { describe, expect, it } from 'vitest';
import { browserBenchOptions } from '../../bench/browser/options.js';

describe("the browser benchmark's options", () => {
  it('run the LARGE=1 rounds on the large preset unless LARGE_SIZE names another', () => {
    expect(browserBenchOptions({ LARGE: '1' })).toMatchObject({ large: true, largeSize: 'large', tenants: [], rounds: 1, roundLimitMs: 1_800_000, searchProducts: 0 });
    expect(browserBenchOptions({ LARGE: '1', LARGE_SIZE: 'medium', ENGINES: 'webkit' })).toMatchObject({ large: true, largeSize: 'medium', engines: ['webkit'] });
    expect(browserBenchOptions({ LARGE: '1', LARGE_SIZE: '' }).largeSize).toBe('large');
    expect(browserBenchOptions({})).toMatchObject({ large: false, largeSize: 'large', tenants: ['small', 'medium'] });
  });

  it('run each candidate in a fresh browser only with FRESH=1, and refuse any other value, naming it', () => {
    expect(browserBenchOptions({}).fresh).toBe(false);
    expect(browserBenchOptions({ FRESH: '0' }).fresh).toBe(false);
    expect(browserBenchOptions({ FRESH: '1' }).fresh).toBe(true);
    expect(() => browserBenchOptions({ FRESH: 'yes' })).toThrow('FRESH: expected 1 or 0, got "yes"');
  });

  it('refuse an unknown preset, and a preset without LARGE=1, naming it', () => {
    expect(() => browserBenchOptions({ LARGE: '1', LARGE_SIZE: 'huge' })).toThrow('LARGE_SIZE: expected one of tiny, small, medium, large, got "huge"');
    expect(() => browserBenchOptions({ LARGE_SIZE: 'medium' })).toThrow('LARGE_SIZE: applies to the LARGE=1 rounds only, got "medium" without LARGE=1');
    expect(() => browserBenchOptions({ TENANTS: 'big' })).toThrow('TENANTS');
  });
});
