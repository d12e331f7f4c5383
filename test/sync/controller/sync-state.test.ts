import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initialState, isClosed, isRunning, isStoppedByApp, nextState, phaseOf, transition, type LifecycleEvent, type LifecycleState, type SyncEvent, type SyncState } from '../../../src/sync/controller/sync-state.js';

const STATES: LifecycleState[] = ['new', 'running', 'stopping', 'restarting', 'stopped', 'closing', 'closed'];
const EVENTS: LifecycleEvent[] = ['start', 'stop', 'stopped', 'close', 'closed'];

/** The "Lifecycle" section of docs/status.md, line by line: the tables the tests read. */
function lifecycleSection(): string[] {
  const guide = readFileSync(fileURLToPath(new URL('../../../docs/status.md', import.meta.url)), 'utf8');
  return guide.slice(guide.indexOf('## Lifecycle')).split('\n');
}

/** The rows of the section's table whose header line begins with `header`, each row's cells trimmed. */
function tableRows(header: string): string[][] {
  const lines = lifecycleSection();
  const at = lines.findIndex((line) => line.startsWith(header));
  expect(at, `a table headed "${header}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

/** Every `SyncState`: each lifecycle, each outcome of the election (none yet included), each pause, each run, online or not (504). */
function everyState(): SyncState[] {
  const states: SyncState[] = [];
  for (const lifecycle of STATES)
    for (const election of ['undecided', 'leader', 'follower'] as const)
      for (const pause of [undefined, 'auth-error', 'storage-error'] as const)
        for (const run of ['resting', 'syncing', 'initial-sync', 'failed'] as const)
          for (const online of [false, true]) states.push({ lifecycle, election, pause, run, failures: run === 'failed' ? 2 : 0, online });
  return states;
}

/** The guide's lifecycle rules, one line each: state, event, the state it leads to. */
const RULES: [LifecycleState, LifecycleEvent, LifecycleState][] = [
  ['new', 'start', 'running'],
  ['new', 'close', 'closing'],
  ['running', 'stop', 'stopping'],
  ['running', 'close', 'closing'],
  ['stopping', 'start', 'restarting'],
  ['stopping', 'stopped', 'stopped'],
  ['stopping', 'close', 'closing'],
  ['restarting', 'stop', 'stopping'],
  ['restarting', 'stopped', 'running'],
  ['restarting', 'close', 'closing'],
  ['stopped', 'start', 'running'],
  ['stopped', 'close', 'closing'],
  ['closing', 'closed', 'closed'],
];

describe('the mirror lifecycle', () => {
  it('moves as the rules say, and every other event leaves the state as it is', () => {
    for (const state of STATES) {
      for (const event of EVENTS) {
        const rule = RULES.find(([s, e]) => s === state && e === event);
        expect(nextState(state, event), `${state} + ${event}`).toBe(rule ? rule[2] : state);
      }
    }
  });

  it('never leaves closed, and reaches it only through closing', () => {
    for (const event of EVENTS) expect(nextState('closed', event)).toBe('closed');
    const into = RULES.filter(([, , to]) => to === 'closed').map(([from]) => from);
    expect(into).toEqual(['closing']);
  });

  it('says running, stopped by the app and closed from its state', () => {
    let state: SyncState = initialState(true);
    /** Moves the state by `event` and says how its lifecycle moved. */
    const send = (event: LifecycleEvent) => {
      const from = state.lifecycle;
      state = transition(state, event);
      return { from, to: state.lifecycle };
    };
    expect([state.lifecycle, isRunning(state), isStoppedByApp(state), isClosed(state)]).toEqual(['new', false, false, false]);
    send('start');
    expect([isRunning(state), isStoppedByApp(state)]).toEqual([true, false]);
    expect(send('stop')).toEqual({ from: 'running', to: 'stopping' });
    expect([isRunning(state), isStoppedByApp(state)]).toEqual([false, true]);
    expect(send('start')).toEqual({ from: 'stopping', to: 'restarting' });
    expect(isStoppedByApp(state)).toBe(true);
    expect(send('stopped')).toEqual({ from: 'restarting', to: 'running' });
    send('close');
    expect([isRunning(state), isClosed(state)]).toEqual([false, true]);
  });

  it('lets a stop() called while a start() waits for an earlier stop win', () => {
    let state: SyncState = initialState(true);
    for (const event of ['start', 'stop', 'start', 'stop', 'stopped'] as const) state = transition(state, event);
    expect(state.lifecycle).toBe('stopped');
  });
});

describe("the guide's lifecycle table", () => {
  it('is the code\'s table: every cell names the state the event leads to, or "—" for none', () => {
    const lines = lifecycleSection();
    const header = lines.findIndex((line) => line.startsWith('| lifecycle |'));
    const events = lines[header]!.split('|').slice(2, -1).map((cell) => cell.trim().replaceAll('`', '')) as LifecycleEvent[];
    expect(events).toEqual(EVENTS);
    const rows = lines.slice(header + 2).filter((line, i, all) => line.startsWith('|') && all.slice(0, i).every((l) => l.startsWith('|')));
    expect(rows.map((row) => /^\| `([a-z]+)`/.exec(row)?.[1])).toEqual(STATES);
    for (const row of rows) {
      const state = /^\| `([a-z]+)`/.exec(row)![1] as LifecycleState;
      const cells = row.split('|').slice(2, -1).map((cell) => cell.trim());
      events.forEach((event, i) => {
        const cell = cells[i]!;
        // `start` is refused before the table once closing or closed (`close()` is for good).
        const expected = cell === '—' || cell === 'refused' ? state : /^`([a-z]+)`$/.exec(cell)?.[1];
        expect(nextState(state, event), `${state} + ${event}: the guide says ${cell}`).toBe(expected);
      });
    }
  });
});

describe("the guide's phase table", () => {
  /** When each row of the table holds, in the table's words. */
  const WHEN: Record<string, (s: SyncState) => boolean> = {
    closed: (s) => s.lifecycle === 'closed',
    'syncing,initial-sync': (s) => s.run === 'syncing' || s.run === 'initial-sync',
    'auth-error,storage-error': (s) => s.pause !== undefined,
    stopped: (s) => ['stopping', 'restarting', 'stopped'].includes(s.lifecycle) && s.election !== 'leader',
    offline: (s) => !s.online,
    error: (s) => s.run === 'failed',
    following: (s) => s.lifecycle === 'running' && s.election === 'follower',
    idle: () => true,
  };

  it('is phaseOf: in every state, the phase is the first row that holds, in the order the guide gives', () => {
    const rows = tableRows('| phase | when |').map(([phases]) => [...phases!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).join(','));
    expect(rows).toEqual(Object.keys(WHEN));
    const states = everyState();
    for (const state of states) {
      const row = rows.find((r) => WHEN[r]!(state))!;
      const phase = phaseOf(state);
      const expected = row.includes(',') ? (row.split(',').find((p) => p === state.run || p === state.pause) ?? row) : row;
      expect(phase, JSON.stringify(state)).toBe(expected);
    }
    expect(states).toHaveLength(STATES.length * 3 * 3 * 4 * 2);
  });
});

describe("the guide's event-effects table", () => {
  /** Every `SyncEvent` once: the compiler refuses a list that misses one or names one that is not. */
  const SYNC_EVENTS = Object.keys({
    start: 0,
    stop: 0,
    stopped: 0,
    close: 0,
    closed: 0,
    lead: 0,
    follow: 0,
    resign: 0,
    'run-began': 0,
    'initial-run-began': 0,
    'run-succeeded': 0,
    'run-cut': 0,
    'run-failed': 0,
    'auth-refused': 0,
    'storage-full': 0,
    token: 0,
    online: 0,
    offline: 0,
  } satisfies Record<SyncEvent, 0>) as SyncEvent[];

  /** The part of the state the table describes; the lifecycle is the lifecycle table's. */
  type Effects = Pick<SyncState, 'election' | 'pause' | 'run'>;
  const unchanged = ({ election, pause, run }: SyncState): Effects => ({ election, pause, run });
  const running = (s: SyncState) => s.lifecycle === 'running';

  /**
   * What each row says `event` does to a state `s`, keyed by the row's cells in the guide's words
   * (event | leads | pause | last run). A cell naming two effects ("yes, no") gives them in the
   * order of the row's events.
   */
  const ROWS: Record<string, (s: SyncState, event: SyncEvent) => Effects> = {
    // A start that does not move the lifecycle into `running` leaves the rest as it is.
    '`start` (into `running`) | — | none | resting': (s) =>
      !running(s) && nextState(s.lifecycle, 'start') === 'running' ? { ...unchanged(s), pause: undefined, run: 'resting' } : unchanged(s),
    '`stop`, `close` (the wind-down ends in `stopped` and `closed`) | — | — | —': unchanged,
    '`stopped` | not yet | none | resting': () => ({ election: 'undecided', pause: undefined, run: 'resting' }),
    '`closed` | not yet | — | —': (s) => ({ ...unchanged(s), election: 'undecided' }),
    "`lead`, `follow` (the election's outcome) | yes, no | none while `running` | resting while `running`": (s, event) => ({
      election: event === 'lead' ? 'leader' : 'follower',
      pause: running(s) ? undefined : s.pause,
      run: running(s) ? 'resting' : s.run,
    }),
    '`resign` (a stop gives the lead back, before its election ends) | not yet | — | —': (s) => ({ ...unchanged(s), election: 'undecided' }),
    '`run-began`, `initial-run-began` | — | — | `syncing`, `initial-sync`': (s, event) => ({ ...unchanged(s), run: event === 'run-began' ? 'syncing' : 'initial-sync' }),
    '`run-succeeded` (connectivity read again first) | — | none (the schedule resumes) | resting': (s) => ({ ...unchanged(s), pause: undefined, run: 'resting' }),
    '`run-cut` (a stop, a close, the lead lost, or the token replaced during the run) | — | — | resting, if it was under way': (s) => ({
      ...unchanged(s),
      run: s.run === 'syncing' || s.run === 'initial-sync' ? 'resting' : s.run,
    }),
    '`run-failed` (retried with backoff) | — | — | failed': (s) => ({ ...unchanged(s), run: 'failed' }),
    '`auth-refused` (401/403) | — | `auth-error` | resting': (s) => ({ ...unchanged(s), pause: 'auth-error', run: 'resting' }),
    '`storage-full` (quota) | — | `storage-error` | resting': (s) => ({ ...unchanged(s), pause: 'storage-error', run: 'resting' }),
    '`token` (`setToken()`) | — | none, if it was `auth-error` | —': (s) => ({ ...unchanged(s), pause: s.pause === 'auth-error' ? undefined : s.pause }),
    '`offline`, `online` | — | — | offline: resting; online: a failure is forgotten': (s, event) => ({
      ...unchanged(s),
      run: event === 'offline' || s.run === 'failed' ? 'resting' : s.run,
    }),
  };

  /** The table's rows: each row's key in {@link ROWS}, and the events its first cell names before its parenthesis. */
  const readRows = () =>
    tableRows('| event | leads | pause | last run |').map((cells) => ({
      row: cells.join(' | '),
      events: [...cells[0]!.split(' (')[0]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1] as SyncEvent),
    }));

  /** A state as a person reads it, for the message of a failed check. */
  const described = (s: SyncState) =>
    `${s.lifecycle}, election ${s.election}, pause ${s.pause ?? 'none'}, run ${s.run}, ${s.online ? 'online' : 'offline'}`;

  it('has one row per SyncEvent, each in the words the test reads', () => {
    const rows = readRows();
    expect(rows.map(({ row }) => row)).toEqual(Object.keys(ROWS));
    expect(rows.flatMap(({ events }) => events).sort()).toEqual([...SYNC_EVENTS].sort());
  });

  it('is transition(): in every state, every event moves the lead, the pause and the last run as its row says', () => {
    const rows = readRows();
    const states = everyState();
    for (const event of SYNC_EVENTS) {
      const row = rows.find(({ events }) => events.includes(event))?.row;
      expect(row, `the guide's row for ${event}`).toBeDefined();
      const says = ROWS[row!];
      expect(says, `the test's reading of the guide's row ${row}`).toBeDefined();
      for (const state of states) {
        expect(unchanged(transition(state, event)), `${described(state)} + ${event}: the guide says ${row}`).toEqual(says!(state, event));
      }
    }
    expect(states).toHaveLength(504);
  });
});

describe('the failures in a row', () => {
  const leading: SyncState = { lifecycle: 'running', election: 'leader', pause: undefined, run: 'resting', failures: 0, online: true };

  it('grow with each failed run and are forgotten by a run that succeeds', () => {
    const twice = transition(transition(leading, 'run-failed'), 'run-failed');
    expect(twice.failures).toBe(2);
    expect(transition(twice, 'run-succeeded').failures).toBe(0);
  });

  it('are forgotten by a new lead, a new start, and a token that ends an auth-error pause, not by one that does not', () => {
    const failed: SyncState = { ...leading, run: 'failed', failures: 3 };
    expect(transition(failed, 'follow').failures).toBe(0);
    expect(transition({ ...failed, lifecycle: 'stopped' }, 'start').failures).toBe(0);
    expect(transition({ ...failed, pause: 'auth-error' }, 'token').failures).toBe(0);
    expect(transition({ ...failed, pause: 'storage-error' }, 'token').failures).toBe(3);
  });
});
