import { describe, expect, it } from 'vitest';
import { browserSoakCommand, readBrowserSoakOptions, UsageError } from '../../scripts/soak-browser/options.js';
import { chaosActions, NEEDS_TABS, userActions, type ChaosAction, type UserAction } from '../../scripts/soak-browser/plan.js';

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
    expect(chaos.some((a) => a.kind === 'kill-storage')).toBe(false);
  });
});

describe('the browser soak plan with storage kills', () => {
  it('is the same for the same seed, and differs for another seed and from the usual plan', () => {
    const a = take(chaosActions(5, 'storage-kills'), 300);
    expect(take(chaosActions(5, 'storage-kills'), 300)).toEqual(a);
    expect(take(chaosActions(6, 'storage-kills'), 300)).not.toEqual(a);
    expect(take(chaosActions(5), 300)).not.toEqual(a);
  });

  it('never draws what needs more than one tab (a reload, a close, a new tab, one tab frozen)', () => {
    expect(NEEDS_TABS).toEqual(['reload', 'close', 'open', 'freeze']);
    for (const seed of [1, 2, 3, 40]) {
      const kinds = new Set(take(chaosActions(seed, 'storage-kills'), 3_000).map((a) => a.kind));
      for (const kind of NEEDS_TABS) expect(kinds, `seed ${seed}`).not.toContain(kind);
    }
  });

  it('kills the storage process at every moment, and keeps the rest of the chaos', () => {
    const chaos = take(chaosActions(3, 'storage-kills'), 3_000);
    const kinds = new Set(chaos.map((a) => a.kind));
    expect(kinds).toEqual(new Set(['kill-storage', 'cut-tab', 'cut-all', 'lid', 'faults', 'register-edit', 'register-remove', 'register-delivery', 'collide']));
    const kills = chaos.flatMap((a) => (a.kind === 'kill-storage' ? [a.moment] : []));
    expect(new Set(kills.map((m) => m.at))).toEqual(new Set(['random', 'mid-pull', 'post-sent', 'post-answered', 'save']));
    // About one action in four: a 45-second run sees a few kills, a ten-minute one many.
    expect(kills.length / chaos.length).toBeGreaterThan(0.2);
    expect(kills.length / chaos.length).toBeLessThan(0.3);
  });
});

describe('npm run soak:browser flags', () => {
  it('reads --seed, --minutes, --tabs and --engine, with defaults, and names the command that repeats a run', () => {
    expect(readBrowserSoakOptions([])).toEqual({ seed: 1, minutes: 1, tabs: 3, engine: 'chromium' });
    expect(readBrowserSoakOptions(['--seed', '9', '--minutes', '10', '--tabs', '4', '--engine', 'webkit'])).toEqual({ seed: 9, minutes: 10, tabs: 4, engine: 'webkit' });
    expect(readBrowserSoakOptions(['--help'])).toBe('help');
    expect(browserSoakCommand({ seed: 9, minutes: 10, tabs: 4, engine: 'firefox' })).toBe('npm run soak:browser -- --seed 9 --minutes 10 --tabs 4 --engine firefox');
  });

  it('reads --storage-kills with --engine webkit, implying one tab, and repeats it in the command', () => {
    expect(readBrowserSoakOptions(['--engine', 'webkit', '--storage-kills'])).toEqual({ seed: 1, minutes: 1, tabs: 1, engine: 'webkit', storageKills: true });
    const options = readBrowserSoakOptions(['--seed', '1', '--minutes', '0.75', '--tabs', '1', '--engine', 'webkit', '--storage-kills']);
    expect(options).toEqual({ seed: 1, minutes: 0.75, tabs: 1, engine: 'webkit', storageKills: true });
    expect(browserSoakCommand(options as Exclude<typeof options, 'help'>)).toBe('npm run soak:browser -- --seed 1 --minutes 0.75 --tabs 1 --engine webkit --storage-kills');
    expect(readBrowserSoakOptions(['--tabs=1', '--engine=webkit', '--storage-kills'])).toMatchObject({ tabs: 1, storageKills: true });
  });

  it('refuses a bad flag with a message naming it', () => {
    const cases: [string[], RegExp][] = [
      [['--engine', 'safari'], /--engine must be one of chromium, firefox, webkit, got "safari"/],
      [['--tabs', '0'], /--tabs must be a whole number from 1 to 8/],
      [['--tabs', '9'], /--tabs must be a whole number from 1 to 8/],
      [['--minutes', '0'], /--minutes must be a number above 0/],
      [['--seed', 'x'], /--seed must be a number, got "x"/],
      [['--devices', '2'], /Unknown option '--devices'/],
      [['--storage-kills'], /--storage-kills needs --engine webkit .*got --engine chromium/],
      [['--storage-kills', '--engine', 'firefox'], /--storage-kills needs --engine webkit .*got --engine firefox/],
      [['--storage-kills', '--engine', 'webkit', '--tabs', '3'], /--storage-kills runs one tab .*got --tabs 3/],
      [['--storage-kills=yes', '--engine', 'webkit'], /--storage-kills/],
    ];
    for (const [argv, message] of cases) {
      expect(() => readBrowserSoakOptions(argv), argv.join(' ')).toThrow(UsageError);
      expect(() => readBrowserSoakOptions(argv), argv.join(' ')).toThrow(message);
    }
  });
});
