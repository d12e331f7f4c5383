/**
 * The command line of `npm run soak:browser`, read and checked:
 * `npm run soak:browser -- --seed 7 --minutes 10 --tabs 4 --engine firefox`, with storage kills
 * `npm run soak:browser -- --seed 1 --minutes 2 --engine webkit --storage-kills`, or a day at the
 * register `npm run soak:browser -- --day --minutes 60 --engine chromium`.
 */
import { ENGINE_NAMES, isEngineName, type EngineName } from '../engines/index.js';
import { MAX_MINUTES, numberFlag, readSoakFlags, UsageError } from '../soak/options.js';

export { UsageError };

/** What one browser soak run is asked to do. */
export interface BrowserSoakOptions {
  /** Seeds the tabs' actions, the chaos, the fault plan and the simulator's tenant and faults. */
  seed: number;
  /** How long actions and chaos go on before everything settles and the checks run. */
  minutes: number;
  /** Tabs open at once (closed ones are replaced by new ones). */
  tabs: number;
  engine: EngineName;
  /**
   * The process serving IndexedDB killed at chosen moments, in WebKit driven through its inspector
   * (one tab, no reload or close); `--storage-kills`. Absent for the usual run.
   */
  storageKills?: true;
  /**
   * A day at the register (`--day`): tabs kept open, the shop selling at its pace, light edits, no
   * destructive chaos, the tabs' heap, database and sync tables sampled (`day-series.ts`). Absent
   * for the usual run.
   */
  day?: true;
}

/** The flags' defaults. */
export const BROWSER_SOAK_DEFAULTS: Readonly<BrowserSoakOptions> = { seed: 1, minutes: 1, tabs: 3, engine: 'chromium' };

/** Tabs a day at the register opens when `--tabs` is not given. */
export const DAY_TABS = 2;

/** Most tabs one run opens at once (each is a page running the mirror, on a 2-core machine). */
export const MAX_TABS = 8;

/** Usage text, printed for `--help` and after a bad flag. */
export const USAGE = `Usage: npm run soak:browser -- [--seed N] [--minutes M] [--tabs T] [--engine chromium|firefox|webkit] [--storage-kills | --day]

Opens T tabs of one origin in a real browser (one profile: they share IndexedDB, Web Locks and
BroadcastChannel), each running the mirror against the simulator over HTTP on 127.0.0.1 through a
proxy of its own, for M minutes: the tabs' users create, edit and delete, the registers sell and
the back office edits, faults come and go (500s, 429s, connections dropped after a POST was
applied, cut bodies), and tabs are reloaded and closed at random moments and at chosen points of
the leader's traffic (mid-pull, right after a POST went out, right after it was answered), new ones
opened, a tab's network or everyone's cut, a tab frozen (Chromium) or the whole browser suspended
(a closed lid), and ids colliding with another device's minted on the server. Then everything is
restored, the outbox settles, and the run checks that nothing acknowledged was lost or doubled,
every tab equals the server, nothing is stuck, no page reported an error and no two tabs led at once.

  --seed N      seed of the plan, the faults and the simulator (default ${BROWSER_SOAK_DEFAULTS.seed})
  --minutes M   how long the plan runs, a decimal number (default ${BROWSER_SOAK_DEFAULTS.minutes}; at most ${MAX_MINUTES})
  --tabs T      tabs open at once, 1 to ${MAX_TABS} (default ${BROWSER_SOAK_DEFAULTS.tabs})
  --engine E    ${ENGINE_NAMES.join(', ')} (default ${BROWSER_SOAK_DEFAULTS.engine})
  --storage-kills
                kill the process serving IndexedDB (WebKit's network process) while the mirror
                works: at random, mid-pull, between a POST and its answer, right after one was
                answered, during a user's save(), as iOS kills it when an app goes to the
                background. Needs --engine webkit and runs one tab (--tabs 1 is implied; another
                count is refused): the WebKit it drives through its inspector has one tab and no
                reload, so reloads, closes, new tabs and one tab frozen alone are left out
  --day         a day at the register: the tabs stay open for M minutes while the registers sell
                at a shop's pace and the back office edits, the users edit now and then, and a
                few short network cuts come; no reload, close, freeze or fault phase. Every 30 s
                each tab's JS heap (where the engine gives it), its database's size and record
                counts and its outbox, conflicts and quarantine are sampled, and the memory of
                the browser's page processes (from /proc); the report adds the series' summary
                and a verdict (heap flat after the first sync, or page memory flat where no heap
                is read, bytes per record steady, sync tables empty at the end) and writes the
                series as JSON under
                test-output/soak-browser/. T defaults to ${DAY_TABS}
  --help        this text

Exits 0 when every check passed (and, with --day, every aim was met), 1 on a violation (the report says how to repeat the run), 2 on a
bad flag.
`;

/** Reads the command line; `'help'` when `--help` was given. */
export function readBrowserSoakOptions(argv: readonly string[]): BrowserSoakOptions | 'help' {
  const defaults = { seed: BROWSER_SOAK_DEFAULTS.seed, minutes: BROWSER_SOAK_DEFAULTS.minutes, tabs: BROWSER_SOAK_DEFAULTS.tabs, engine: BROWSER_SOAK_DEFAULTS.engine };
  const flags = readSoakFlags(argv, defaults, ['storage-kills', 'day']);
  if (flags === 'help') return 'help';
  const { seed, minutes, values } = flags;
  const tabsGiven = argv.some((arg) => arg === '--tabs' || arg.startsWith('--tabs='));
  let tabs = numberFlag(values.tabs, '--tabs');
  if (!Number.isInteger(tabs) || tabs < 1 || tabs > MAX_TABS) throw new UsageError(`--tabs must be a whole number from 1 to ${MAX_TABS}, got ${JSON.stringify(values.tabs)}`);
  const engine = values.engine.trim();
  if (!isEngineName(engine)) throw new UsageError(`--engine must be one of ${ENGINE_NAMES.join(', ')}, got ${JSON.stringify(values.engine)}`);
  if (flags.switches.day) {
    if (flags.switches['storage-kills']) throw new UsageError('--day and --storage-kills do not go together (a day at the register has no destructive chaos)');
    return { seed, minutes, tabs: tabsGiven ? tabs : DAY_TABS, engine, day: true };
  }
  if (!flags.switches['storage-kills']) return { seed, minutes, tabs, engine };
  // Only WebKit's storage process can be killed alone, and the browser that survives it has one tab.
  if (engine !== 'webkit') throw new UsageError(`--storage-kills needs --engine webkit (only WebKit serves IndexedDB from a process of its own), got --engine ${engine}`);
  if (tabsGiven && tabs !== 1) throw new UsageError(`--storage-kills runs one tab (the WebKit it drives through its inspector has one), got --tabs ${values.tabs}`);
  tabs = 1;
  return { seed, minutes, tabs, engine, storageKills: true };
}

/** The command that repeats a run with these options. */
export function browserSoakCommand(options: BrowserSoakOptions): string {
  return `npm run soak:browser -- --seed ${options.seed} --minutes ${options.minutes} --tabs ${options.tabs} --engine ${options.engine}${options.storageKills ? ' --storage-kills' : ''}${options.day ? ' --day' : ''}`;
}
