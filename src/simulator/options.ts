/**
 * Options of {@link createSimulator}, their defaults (one object) and their validation (once, at
 * creation: a bad option is a ValidationError naming it).
 */
import { ValidationError, formatIssues, type ValidationIssue } from '../errors/index.js';
import type { ActivityOptions } from './store/activity.js';
import type { FaultOptions } from './http/faults.js';
import { Rng } from './rng.js';
import type { SizeOption } from './size.js';
import { DEFAULT_SWITCHES, applySwitches, type SwitchOptions, type Switches } from './switches.js';

/** Options of a simulator. */
export interface SimulatorOptions extends SwitchOptions {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /** API token clients must send as `Authorization: A|<token>`. @default derived from the seed */
  token?: string;
  /** Seed of the data and of the fault sequence. @default 1 */
  seed?: number;
  /** The `{base_url}` path prefix. @default '/api/v1' */
  basePath?: string;
  /** Size of the generated tenant. @default 'tiny' */
  size?: SizeOption;
  /** Fault knobs. @default none */
  faults?: FaultOptions;
  /** The simulator's clock, which stamps `_v`; history is generated up to an hour before `start`. @default { start: 2026-01-01T00:00:00Z } */
  clock?: { start?: number };
  /** Registers keep selling while clients sync. @default false */
  activity?: ActivityOptions | false;
  /** How many recent requests the request log keeps. @default 1000 */
  logSize?: number;
}

/** Every option resolved. */
export interface ResolvedOptions {
  port: number;
  host: string;
  token: string;
  seed: number;
  basePath: string;
  size: SizeOption;
  faults: Required<FaultOptions>;
  clockStart: number;
  activity: ActivityOptions | false;
  logSize: number;
  switches: Switches;
}

/** Defaults of every option (the token's default depends on the seed). */
export const SIMULATOR_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  seed: 1,
  basePath: '/api/v1',
  size: 'tiny',
  clockStart: Date.UTC(2026, 0, 1),
  activity: false,
  logSize: 1000,
} as const;

/** Fault knobs, all off. */
export const NO_FAULTS: Readonly<Required<FaultOptions>> = {
  errorRate: 0,
  rateLimitPerSecond: 0,
  rateLimitBurst: 0,
  extra429Rate: 0,
  latencyMs: 0,
  dropRate: 0,
  truncateRate: 0,
};

/** The token a seed gives when none is set. */
export function tokenForSeed(seed: number): string {
  const rng = Rng.of(seed, 0x70c3e);
  let token = 'sim_';
  for (let i = 0; i < 4; i++) token += rng.uint32().toString(16).padStart(8, '0');
  return token;
}

const TOKEN_MESSAGE = 'expected a non-empty string of visible ASCII characters';

/** True for a token a client can send in `Authorization: A|<token>`: visible ASCII, no spaces. */
function isToken(token: unknown): token is string {
  return typeof token === 'string' && /^[\x21-\x7e]+$/.test(token);
}

/** Validates a token given to `setToken` (ValidationError naming `token` otherwise; the message never quotes it). */
export function resolveToken(token: unknown): string {
  if (!isToken(token)) throw new ValidationError(`simulator token: ${TOKEN_MESSAGE}`, { issues: [{ path: ['token'], message: TOKEN_MESSAGE }] });
  return token;
}

/** Validates fault knobs; unknown or out-of-range ones are a ValidationError naming them. */
export function resolveFaults(faults: FaultOptions = {}): Required<FaultOptions> {
  const issues: ValidationIssue[] = [];
  const out = { ...NO_FAULTS };
  for (const [key, value] of Object.entries(faults) as [keyof FaultOptions, unknown][]) {
    // Own keys only: `in` would take inherited names (`toString`, `constructor`) for knobs.
    if (!Object.hasOwn(NO_FAULTS, key)) issues.push({ path: ['faults', key], message: 'unknown fault knob' });
    else if (value === undefined) continue;
    else if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) issues.push({ path: ['faults', key], message: `expected a number >= 0, got ${String(value)}` });
    else if (key.endsWith('Rate') && value > 1) issues.push({ path: ['faults', key], message: `a rate is a share of requests in 0..1, got ${value}` });
    else out[key] = value;
  }
  if (issues.length > 0) throw new ValidationError(`simulator faults: ${formatIssues(issues)}`, { issues });
  return out;
}

/** Resolves and validates every option. */
export function resolveOptions(opts: SimulatorOptions = {}): ResolvedOptions {
  const issues: ValidationIssue[] = [];
  const d = SIMULATOR_DEFAULTS;
  const port = opts.port ?? d.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) issues.push({ path: ['port'], message: `expected 0..65535, got ${String(port)}` });
  const host = opts.host ?? d.host;
  if (typeof host !== 'string' || host === '') issues.push({ path: ['host'], message: 'expected a host name or address' });
  const seed = opts.seed ?? d.seed;
  if (!Number.isSafeInteger(seed)) issues.push({ path: ['seed'], message: `expected an integer, got ${String(seed)}` });
  const token = opts.token ?? tokenForSeed(seed);
  if (!isToken(token)) issues.push({ path: ['token'], message: TOKEN_MESSAGE });
  let basePath = opts.basePath ?? d.basePath;
  if (typeof basePath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*\/?$/.test(basePath)) issues.push({ path: ['basePath'], message: `expected a path such as /api/v1, got ${basePath}` });
  else basePath = basePath.replace(/\/$/, '');
  const clockStart = opts.clock?.start ?? d.clockStart;
  // History reaches three years back and ids start at 2015-08-19: the clock must be past 2018-09.
  if (!Number.isSafeInteger(clockStart) || clockStart < Date.UTC(2018, 8, 1)) issues.push({ path: ['clock', 'start'], message: `expected a time in ms after 2018-09-01, got ${String(clockStart)}` });
  const logSize = opts.logSize ?? d.logSize;
  if (!Number.isInteger(logSize) || logSize < 1) issues.push({ path: ['logSize'], message: `expected a whole number >= 1, got ${String(logSize)}` });
  if (issues.length > 0) throw new ValidationError(`simulator options: ${formatIssues(issues)}`, { issues });
  return {
    port,
    host,
    token,
    seed,
    basePath,
    size: opts.size ?? d.size,
    faults: resolveFaults(opts.faults),
    clockStart,
    activity: opts.activity ?? d.activity,
    logSize,
    switches: applySwitches({ ...DEFAULT_SWITCHES }, opts),
  };
}
