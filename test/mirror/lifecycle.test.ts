import { describe, expect, it } from 'vitest';
import { Lifecycle, nextState, type LifecycleEvent, type LifecycleState } from '../../src/mirror/lifecycle.js';

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

  it('says running, halted and closed from its state', () => {
    const lifecycle = new Lifecycle();
    expect([lifecycle.state, lifecycle.running, lifecycle.halted, lifecycle.closed]).toEqual(['new', false, false, false]);
    lifecycle.send('start');
    expect([lifecycle.running, lifecycle.halted]).toEqual([true, false]);
    expect(lifecycle.send('stop')).toEqual({ from: 'running', to: 'stopping' });
    expect([lifecycle.running, lifecycle.halted]).toEqual([false, true]);
    expect(lifecycle.send('start')).toEqual({ from: 'stopping', to: 'restarting' });
    expect(lifecycle.halted).toBe(true);
    expect(lifecycle.send('stopped')).toEqual({ from: 'restarting', to: 'running' });
    lifecycle.send('close');
    expect([lifecycle.running, lifecycle.closed]).toEqual([false, true]);
  });

  it('lets a stop() called while a start() waits for an earlier stop win', () => {
    const lifecycle = new Lifecycle();
    for (const event of ['start', 'stop', 'start', 'stop', 'stopped'] as const) lifecycle.send(event);
    expect(lifecycle.state).toBe('stopped');
  });
});
