import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initialState, isClosed, isRunning, isStoppedByApp, nextState, phaseOf, transition, type LifecycleEvent, type LifecycleState, type SyncState } from '../../../src/sync/controller/sync-state.js';

const STATES: LifecycleState[] = ['new', 'running', 'stopping', 'restarting', 'stopped', 'closing', 'closed'];
const EVENTS: LifecycleEvent[] = ['start', 'stop', 'stopped', 'close', 'closed'];

/** The README's lifecycle rules, one line each: state, event, the state it leads to. */
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

describe("the README's lifecycle table", () => {
  it('is the code\'s table: every cell names the state the event leads to, or "—" for none', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    const section = readme.slice(readme.indexOf('### Lifecycle'));
    const lines = section.split('\n');
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
        expect(nextState(state, event), `${state} + ${event}: the README says ${cell}`).toBe(expected);
      });
    }
  });
});

describe("the README's phase table", () => {
  /** When each row of the table holds, in the table's words. */
  const WHEN: Record<string, (s: SyncState) => boolean> = {
    closed: (s) => s.lifecycle === 'closed',
    'syncing,initial-sync': (s) => s.run === 'syncing' || s.run === 'initial-sync',
    'auth-error,storage-error': (s) => s.pause !== undefined,
    stopped: (s) => ['stopping', 'restarting', 'stopped'].includes(s.lifecycle) && !s.leader,
    offline: (s) => !s.online,
    error: (s) => s.run === 'failed',
    following: (s) => s.lifecycle === 'running' && !s.leader,
    idle: () => true,
  };

  it('is phaseOf: in every state, the phase is the first row that holds, in the order the README gives', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    const lines = readme.slice(readme.indexOf('### Lifecycle')).split('\n');
    const header = lines.findIndex((line) => line.startsWith('| phase | when |'));
    const rows: string[] = [];
    for (const line of lines.slice(header + 2)) {
      if (!line.startsWith('|')) break;
      rows.push([...line.split('|')[1]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).join(','));
    }
    expect(rows).toEqual(Object.keys(WHEN));
    let checked = 0;
    for (const lifecycle of STATES)
      for (const leader of [false, true])
        for (const pause of [undefined, 'auth-error', 'storage-error'] as const)
          for (const run of ['resting', 'syncing', 'initial-sync', 'failed'] as const)
            for (const online of [false, true]) {
              const state: SyncState = { lifecycle, leader, pause, run, online };
              const row = rows.find((r) => WHEN[r]!(state))!;
              const phase = phaseOf(state);
              const expected = row.includes(',') ? (row.split(',').find((p) => p === state.run || p === state.pause) ?? row) : row;
              expect(phase, JSON.stringify(state)).toBe(expected);
              checked++;
            }
    expect(checked).toBe(STATES.length * 2 * 3 * 4 * 2);
  });
});
