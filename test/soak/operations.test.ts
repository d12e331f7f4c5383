import { describe, expect, it } from 'vitest';
import { operations, type Operation } from '../../scripts/soak/operations.js';
import { readSoakOptions, soakCommand, UsageError } from '../../scripts/soak/options.js';

const first = (seed: number, devices: number, n: number): Operation[] => {
  const stream = operations(seed, devices);
  return Array.from({ length: n }, () => stream.next().value);
};

describe('the soak operation sequence', () => {
  it('is the same for the same seed and device count, and differs for another seed', () => {
    const a = first(5, 3, 500);
    expect(first(5, 3, 500)).toEqual(a);
    expect(first(6, 3, 500)).not.toEqual(a);
    // Every kind of operation comes up, on every device.
    expect(new Set(first(5, 3, 3000).map((op) => op.kind)).size).toBe(15);
    expect(new Set(a.flatMap((op) => ('device' in op ? [op.device] : [])))).toEqual(new Set([1, 2, 3]));
  });
});

describe('npm run soak flags', () => {
  it('reads --seed, --minutes and --devices, with defaults, and names the command that repeats a run', () => {
    expect(readSoakOptions([])).toEqual({ seed: 1, minutes: 1, devices: 3 });
    expect(readSoakOptions(['--seed', '42', '--minutes', '0.5', '--devices', '4'])).toEqual({ seed: 42, minutes: 0.5, devices: 4 });
    expect(readSoakOptions(['--seed=7'])).toMatchObject({ seed: 7 });
    expect(readSoakOptions(['--help'])).toBe('help');
    expect(soakCommand({ seed: 42, minutes: 0.5, devices: 4 })).toBe('npm run soak -- --seed 42 --minutes 0.5 --devices 4');
  });

  it('refuses a bad flag with a message naming it', () => {
    const cases: [string[], RegExp][] = [
      [['--seed', 'x'], /--seed must be a number, got "x"/],
      [['--seed=-1'], /--seed must be a whole number >= 0/],
      [['--seed', '1.5'], /--seed must be a whole number >= 0/],
      [['--minutes', '0'], /--minutes must be a number above 0/],
      [['--minutes', ''], /--minutes must be a number, got ""/],
      [['--minutes', '100000'], /at most 1440/],
      [['--devices', '0'], /--devices must be a whole number from 1 to 16/],
      [['--devices', '2.5'], /--devices must be a whole number from 1 to 16/],
      [['--device', '2'], /Unknown option '--device'/],
      [['extra'], /Unexpected argument 'extra'/],
      [['--seed'], /--seed/],
    ];
    for (const [argv, message] of cases) {
      expect(() => readSoakOptions(argv), argv.join(' ')).toThrow(UsageError);
      expect(() => readSoakOptions(argv), argv.join(' ')).toThrow(message);
    }
  });
});
