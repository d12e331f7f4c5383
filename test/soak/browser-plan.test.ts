import { describe, expect, it } from 'vitest';
import { browserSoakCommand, readBrowserSoakOptions, UsageError } from '../../scripts/soak-browser/options.js';
import { chaosActions, userActions, type ChaosAction, type UserAction } from '../../scripts/soak-browser/plan.js';

const take = <T>(stream: Generator<T, never>, n: number): T[] => Array.from({ length: n }, () => stream.next().value);

describe('the browser soak plan', () => {
  it("is the same for the same seed and tab, and differs for another seed or tab", () => {
    const a = take(userActions(5, 1), 300);
    expect(take(userActions(5, 1), 300)).toEqual(a);
    expect(take(userActions(6, 1), 300)).not.toEqual(a);
    expect(take(userActions(5, 2), 300)).not.toEqual(a);
    expect(take(chaosActions(5), 300)).toEqual(take(chaosActions(5), 300));
    expect(take(chaosActions(5), 300)).not.toEqual(take(chaosActions(6), 300));
  });

  it('has every kind of user action and of chaos, and reloads and closes at every point of the traffic', () => {
    const users = take(userActions(3, 1), 2_000);
    expect(new Set(users.map((a: UserAction) => a.kind))).toEqual(new Set(['edit', 'create', 'remove', 'resolve']));
    const chaos = take(chaosActions(3), 3_000);
    expect(new Set(chaos.map((a: ChaosAction) => a.kind)).size).toBe(12);
    const moments = new Set(chaos.flatMap((a) => (a.kind === 'reload' || a.kind === 'close' ? [`${a.kind} ${a.moment.at}`] : [])));
    for (const kind of ['reload', 'close']) for (const at of ['random', 'mid-pull', 'post-sent', 'post-answered']) expect(moments).toContain(`${kind} ${at}`);
  });
});

describe('npm run soak:browser flags', () => {
  it('reads --seed, --minutes, --tabs and --engine, with defaults, and names the command that repeats a run', () => {
    expect(readBrowserSoakOptions([])).toEqual({ seed: 1, minutes: 1, tabs: 3, engine: 'chromium' });
    expect(readBrowserSoakOptions(['--seed', '9', '--minutes', '10', '--tabs', '4', '--engine', 'webkit'])).toEqual({ seed: 9, minutes: 10, tabs: 4, engine: 'webkit' });
    expect(readBrowserSoakOptions(['--help'])).toBe('help');
    expect(browserSoakCommand({ seed: 9, minutes: 10, tabs: 4, engine: 'firefox' })).toBe('npm run soak:browser -- --seed 9 --minutes 10 --tabs 4 --engine firefox');
  });

  it('refuses a bad flag with a message naming it', () => {
    const cases: [string[], RegExp][] = [
      [['--engine', 'safari'], /--engine must be one of chromium, firefox, webkit, got "safari"/],
      [['--tabs', '0'], /--tabs must be a whole number from 1 to 8/],
      [['--tabs', '9'], /--tabs must be a whole number from 1 to 8/],
      [['--minutes', '0'], /--minutes must be a number above 0/],
      [['--seed', 'x'], /--seed must be a number, got "x"/],
      [['--devices', '2'], /Unknown option '--devices'/],
    ];
    for (const [argv, message] of cases) {
      expect(() => readBrowserSoakOptions(argv), argv.join(' ')).toThrow(UsageError);
      expect(() => readBrowserSoakOptions(argv), argv.join(' ')).toThrow(message);
    }
  });
});
