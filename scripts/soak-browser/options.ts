/**
 * The command line of `npm run soak:browser`, read and checked:
 * `npm run soak:browser -- --seed 7 --minutes 10 --tabs 4 --engine firefox`.
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
}

/** The flags' defaults. */
export const BROWSER_SOAK_DEFAULTS: Readonly<BrowserSoakOptions> = { seed: 1, minutes: 1, tabs: 3, engine: 'chromium' };

/** Most tabs one run opens at once (each is a page running the mirror, on a 2-core machine). */
export const MAX_TABS = 8;

/** Usage text, printed for `--help` and after a bad flag. */
export const USAGE = `Usage: npm run soak:browser -- [--seed N] [--minutes M] [--tabs T] [--engine chromium|firefox|webkit]

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
  --help        this text

Exits 0 when every check passed, 1 on a violation (the report says how to repeat the run), 2 on a
bad flag.
`;

/** Reads the command line; `'help'` when `--help` was given. */
export function readBrowserSoakOptions(argv: readonly string[]): BrowserSoakOptions | 'help' {
  const flags = readSoakFlags(argv, { seed: BROWSER_SOAK_DEFAULTS.seed, minutes: BROWSER_SOAK_DEFAULTS.minutes, tabs: BROWSER_SOAK_DEFAULTS.tabs, engine: BROWSER_SOAK_DEFAULTS.engine });
  if (flags === 'help') return 'help';
  const { seed, minutes, values } = flags;
  const tabs = numberFlag(values.tabs, '--tabs');
  if (!Number.isInteger(tabs) || tabs < 1 || tabs > MAX_TABS) throw new UsageError(`--tabs must be a whole number from 1 to ${MAX_TABS}, got ${JSON.stringify(values.tabs)}`);
  const engine = values.engine.trim();
  if (!isEngineName(engine)) throw new UsageError(`--engine must be one of ${ENGINE_NAMES.join(', ')}, got ${JSON.stringify(values.engine)}`);
  return { seed, minutes, tabs, engine };
}

/** The command that repeats a run with these options. */
export function browserSoakCommand(options: BrowserSoakOptions): string {
  return `npm run soak:browser -- --seed ${options.seed} --minutes ${options.minutes} --tabs ${options.tabs} --engine ${options.engine}`;
}
