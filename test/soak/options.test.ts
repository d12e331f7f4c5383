import { describe, expect, it } from 'vitest';
import { readBrowserSoakOptions } from '../../scripts/soak-browser/options.js';
import { readSoakOptions, UsageError } from '../../scripts/soak/options.js';

describe('the soaks\' command lines', () => {
  it('give the defaults, read every flag and answer --help', () => {
    expect(readSoakOptions([])).toEqual({ seed: 1, minutes: 1, devices: 3 });
    expect(readSoakOptions(['--devices', '4', '--minutes', '0.5', '--seed', '9'])).toEqual({ seed: 9, minutes: 0.5, devices: 4 });
    expect(readBrowserSoakOptions(['--seed', '3', '--tabs', '2', '--engine', 'webkit'])).toEqual({ seed: 3, minutes: 1, tabs: 2, engine: 'webkit' });
    expect(readBrowserSoakOptions(['--day', '--minutes', '60'])).toEqual({ seed: 1, minutes: 60, tabs: 2, engine: 'chromium', day: true });
    expect(readBrowserSoakOptions(['--day', '--tabs', '3'])).toMatchObject({ tabs: 3, day: true });
    expect(readSoakOptions(['--help'])).toBe('help');
    expect(readBrowserSoakOptions(['--help'])).toBe('help');
  });

  it('refuse an unknown flag, a positional and a bad number with a UsageError naming it', () => {
    const refusals: [() => unknown, RegExp][] = [
      [() => readSoakOptions(['--tabs', '2']), /--tabs/],
      [() => readBrowserSoakOptions(['--devices', '2']), /--devices/],
      [() => readBrowserSoakOptions(['now']), /now/],
      [() => readSoakOptions(['--seed', 'x']), /--seed must be a number, got "x"/],
      [() => readSoakOptions(['--minutes', '0']), /--minutes must be a number above 0/],
      [() => readBrowserSoakOptions(['--tabs', '0']), /--tabs must be a whole number from 1/],
      [() => readBrowserSoakOptions(['--engine', 'opera']), /--engine/],
      [() => readBrowserSoakOptions(['--day', '--storage-kills', '--engine', 'webkit']), /--day and --storage-kills/],
    ];
    for (const [read, message] of refusals) {
      expect(read).toThrow(UsageError);
      expect(read).toThrow(message);
    }
  });
});
