import { describe, expect, it } from 'vitest';
import { replacedBlind, type Collision } from '../../scripts/soak-browser/back-office.js';
import { checkBrowserSoak, type BrowserSoakState } from '../../scripts/soak-browser/browser-checks.js';
import { checkLeaders, LEADER_TOLERANCE_MS } from '../../scripts/soak-browser/leader-check.js';
import type { PageReport } from '../../scripts/soak-browser/page/soak-page.js';
import { ServiceWatch } from '../../scripts/soak-browser/service-watch.js';
import type { AnyRecord } from '../../scripts/soak/checks.js';
import { Ledger } from '../../scripts/soak/ledger.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';

const T = 1_800_000_000_000;

type Unnumbered = PageReport extends infer R ? (R extends PageReport ? Omit<R, 'seq'> : never) : never;

/** Reports numbered as a page numbers them (per session, in order). */
function numbered(reports: Unnumbered[]): PageReport[] {
  const next = new Map<string, number>();
  return reports.map((r) => {
    const seq = next.get(r.session) ?? 0;
    next.set(r.session, seq + 1);
    return { ...r, seq } as PageReport;
  });
}

/** Two tabs' reports: tab 1 led, was reloaded (pagehide), and tab 2 took over after it. */
function handOver(): PageReport[] {
  return numbered([
    { kind: 'boot', session: 'a', slot: 1, at: T },
    { kind: 'leader', session: 'a', slot: 1, at: T + 10, leader: true },
    { kind: 'boot', session: 'b', slot: 2, at: T + 20 },
    { kind: 'gone', session: 'a', slot: 1, at: T + 500 },
    { kind: 'leader', session: 'b', slot: 2, at: T + 503, leader: true },
    { kind: 'boot', session: 'c', slot: 1, at: T + 600 },
  ]);
}

/**
 * A settled browser run: the tenant's customer 10, a customer one tab created (id 30, marked 3.0)
 * and an order with an item created together (40 and 41, marked 5.0 and 5.1), edits on the server,
 * both open tabs equal to it, the lead handed over once.
 */
function settled(): BrowserSoakState {
  const empty = Object.fromEntries(COLLECTIONS.map((c) => [c, [] as AnyRecord[]])) as Record<CollectionName, AnyRecord[]>;
  const server: Record<CollectionName, AnyRecord[]> = {
    ...empty,
    customers: [
      { id: '10', _v: 5, _d: 0, firstname: 'd1#7' },
      { id: '30', _v: 7, _d: 0, firstname: 'd1#3', soak_create: '3.0' },
    ],
    orders: [{ id: '40', _v: 8, _d: 0, note: 'd1#5', soak_create: '5.0' }],
    order_details: [{ id: '41', _v: 9, _d: 0, id_order: '40', note: 'd1#5.2', soak_create: '5.1' }],
  };
  const ledger = new Ledger();
  ledger.created(3, 'device 1', 'customers', '30', '3.0');
  ledger.wrote(3, 'device 1', 'customers', '30', null, { firstname: 'd1#3' }, '3.0');
  ledger.created(5, 'device 1', 'orders', '40', '5.0');
  ledger.wrote(5, 'device 1', 'orders', '40', null, { note: 'd1#5' }, '5.0');
  ledger.created(5, 'device 1', 'order_details', '41', '5.1', { id_order: '5.0' });
  ledger.wrote(5, 'device 1', 'order_details', '41', null, { note: 'd1#5.2' }, '5.1');
  ledger.wrote(7, 'device 1', 'customers', '10', { firstname: 'Jana' }, { firstname: 'd1#7' });
  const copy = () => Object.fromEntries(COLLECTIONS.map((c) => [c, server[c].map((r) => ({ ...r }))])) as Record<CollectionName, AnyRecord[]>;
  return {
    soak: {
      server,
      initialCounts: { ...Object.fromEntries(COLLECTIONS.map((c) => [c, 0])), customers: 1 } as Record<CollectionName, number>,
      devices: [1, 2].map((slot) => ({ writer: 'device 1' as const, label: `tab ${slot}`, records: copy(), outbox: [] })),
      ledger,
      unhandledRejections: [],
      operationErrors: [],
    },
    reports: handOver(),
    ended: new Map([['a', T + 495]]),
    runEnd: T + 1_000,
    pageErrors: [],
    going: new Map(),
    collisions: [],
  };
}

const kinds = (state: BrowserSoakState) => checkBrowserSoak(state).violations.map((v) => v.kind);

describe('the browser soak checks', () => {
  it('pass a settled run: creates once, every write on the server, the tabs equal to it, one leader at a time', () => {
    const result = checkBrowserSoak(settled());
    expect(result.violations).toEqual([]);
    expect(result.soak).toMatchObject({ lost: 0, duplicated: 0, createsFound: 3 });
    expect(result.leaders).toMatchObject({ handOvers: 1, overlaps: [] });
  });

  it('catch a create applied twice: its marker on two records', () => {
    const state = settled();
    (state.soak.server.customers as AnyRecord[]).push({ id: '31', _v: 9, _d: 0, firstname: 'd1#3', soak_create: '3.0' });
    const result = checkBrowserSoak(state);
    expect(result.soak.duplicated).toBe(1);
    expect(result.violations.map((v) => v.message)).toContain('customers: the create marked 3.0 is on the server 2 times, as 30, 31');
  });

  it('catch a lost edit: an acknowledged write neither on the server nor explained', () => {
    const state = settled();
    for (const records of [state.soak.server.customers, ...state.soak.devices.map((d) => d.records.customers)]) (records[0] as Record<string, unknown>).firstname = 'Jana';
    const result = checkBrowserSoak(state);
    expect(result.soak.lost).toBe(1);
    expect(result.violations).toEqual([{ kind: 'lost', message: expect.stringContaining('wrote firstname = "d1#7" in customers 10 (step 7): the server has "Jana"'), subject: { collection: 'customers', id: '10' } }]);
  });

  it('take a write its tab was reloaded before acknowledging as having seen what it wrote over (not checked itself)', () => {
    const state = settled();
    // The back office wrote r#9 after the tab's d1#7; a tab then wrote d1#11 over r#9, and was reloaded before the harness heard.
    state.soak.ledger.wrote(9, 'register', 'customers', '10', { firstname: 'd1#7' }, { firstname: 'r#9' });
    for (const records of [state.soak.server.customers, ...state.soak.devices.map((d) => d.records.customers)]) (records[0] as Record<string, unknown>).firstname = 'd1#11';
    expect(checkBrowserSoak(state).violations.map((v) => v.message)).toEqual([expect.stringContaining('register wrote firstname = "r#9" in customers 10 (step 9): the server has "d1#11"')]);
    const witnessed = new Ledger();
    witnessed.wrote(11, 'device 1', 'customers', '10', { firstname: 'r#9' }, { firstname: 'd1#11' });
    state.soak.witnessed = witnessed;
    expect(kinds(state)).toEqual([]);
  });

  it('catch two leaders at once, beyond the tolerance, and not within it', () => {
    const overlapping = settled();
    overlapping.reports = [...handOver().filter((r) => r.kind !== 'leader' || r.session !== 'b'), { kind: 'leader', session: 'b', slot: 2, seq: 9, at: T + 300, leader: true }];
    const result = checkBrowserSoak(overlapping);
    expect(result.violations).toEqual([{ kind: 'two-leaders', message: expect.stringMatching(/^two leaders at once for 200 ms: tab 1 \(load a\) led .* \(end known by pagehide\); tab 2 \(load b\)/) }]);

    const close = settled();
    close.reports = [...handOver().filter((r) => r.kind !== 'leader' || r.session !== 'b'), { kind: 'leader', session: 'b', slot: 2, seq: 9, at: T + 500 - LEADER_TOLERANCE_MS, leader: true }];
    expect(kinds(close)).toEqual([]);
  });

  it('end a span where the harness began to close the tab when its page could not say (a frozen tab closed)', () => {
    const reports = handOver().filter((r) => r.kind !== 'gone');
    expect(checkLeaders(reports, new Map([['a', T + 495]]), T + 1_000).spans[0]).toMatchObject({ session: 'a', to: T + 495, end: 'closed by the harness' });
    // Not ended by the harness either: the next load of its tab ends it.
    expect(checkLeaders(reports, new Map(), T + 1_000).overlaps).toEqual([expect.objectContaining({ ms: 97 })]);
  });

  it('catch an error a page reported', () => {
    const state = settled();
    state.pageErrors = [{ tab: 'x1', url: 'http://127.0.0.1/?slot=2', kind: 'unhandledrejection', message: 'DatabaseClosedError: closed' }];
    expect(checkBrowserSoak(state).violations).toEqual([{ kind: 'page-error', message: 'tab x1 (http://127.0.0.1/?slot=2): unhandledrejection: DatabaseClosedError: closed' }]);
  });

  it('count an error from a tab the harness was closing or reloading apart, not as a violation', () => {
    const state = settled();
    const error = (message: string, at: number) => ({ tab: 'x1', url: 'http://127.0.0.1/?slot=2', kind: 'error' as const, message, at });
    // Closed from T+500 on; reloaded from T+100 until its new page loaded at T+140.
    state.going = new Map([['x1', [{ from: T + 100, to: T + 140 }, { from: T + 500, to: Number.POSITIVE_INFINITY }]]]);
    state.pageErrors = [error('TypeError: can\'t access property "env", e is undefined', T + 120), error('gone', T + 900), error('before', T + 99), error('between', T + 141)];
    const result = checkBrowserSoak(state);
    expect(result.violations.map((v) => v.message)).toEqual(['tab x1 (http://127.0.0.1/?slot=2): error: before', 'tab x1 (http://127.0.0.1/?slot=2): error: between']);
    expect(result.pageErrorsWhileGoing.map((e) => e.message)).toEqual(['TypeError: can\'t access property "env", e is undefined', 'gone']);
    // Without a time, an error is never excused.
    state.pageErrors = [{ tab: 'x1', url: 'u', kind: 'error', message: 'no time' }];
    expect(kinds(state)).toEqual(['page-error']);
  });

  describe('a minted id collision', () => {
    /** The order the tab created as 40 collided with another device's; the tab's went out as 50, its item with it. */
    function collided(): BrowserSoakState {
      const state = settled();
      const theirs = { id: '40', _v: 11, _d: 0, note: 'r#6' };
      const ours = { id: '50', _v: 12, _d: 0, note: 'd1#5', soak_create: '5.0' };
      state.soak.server = { ...state.soak.server, orders: [theirs, ours], order_details: [{ id: '41', _v: 13, _d: 0, id_order: '50', note: 'd1#5.2', soak_create: '5.1' }] };
      state.soak.ledger.registerCreated(new Map([['orders', 1]]));
      state.soak.ledger.wrote(6, 'register', 'orders', '40', null, { note: 'r#6' });
      state.soak.devices = state.soak.devices.map((d) => ({ ...d, records: { ...d.records, orders: state.soak.server.orders.map((r) => ({ ...r })), order_details: state.soak.server.order_details.map((r) => ({ ...r })) } }));
      const collision: Collision = { collection: 'orders', id: '40', marker: '5.0', record: {}, values: { note: 'r#6' }, since: T, step: 6, state: 'written' };
      state.collisions = [collision];
      state.reports = [...state.reports, { kind: 'moved', session: 'b', slot: 2, seq: 9, at: T + 700, moves: [{ collection: 'orders', from: '40', to: '50', at: T + 700 }] }];
      return state;
    }

    it('pass when the tab create moved to a fresh id with its item, and the other record stands', () => {
      const result = checkBrowserSoak(collided());
      expect(result.violations).toEqual([]);
      expect(result.collisionsMoved).toBe(1);
    });

    it('catch an item left pointing at the other device’s record', () => {
      const state = collided();
      for (const records of [state.soak.server.order_details, ...state.soak.devices.map((d) => d.records.order_details)]) (records[0] as Record<string, unknown>).id_order = '40';
      expect(checkBrowserSoak(state).violations).toEqual([
        { kind: 'lost', message: expect.stringContaining('order_details 41 (step 5) with id_order pointing at the orders it was created with, now 50; the server has "40"'), subject: { collection: 'order_details', id: '41' } },
      ]);
    });

    it("catch the tab's create written over the other device's record", () => {
      const state = collided();
      const over = [{ id: '40', _v: 14, _d: 0, note: 'd1#5', soak_create: '5.0' }];
      state.soak.server = { ...state.soak.server, orders: over, order_details: [{ id: '41', _v: 13, _d: 0, id_order: '40', note: 'd1#5.2', soak_create: '5.1' }] };
      state.soak.devices = state.soak.devices.map((d) => ({ ...d, records: { ...d.records, orders: over.map((r) => ({ ...r })), order_details: state.soak.server.order_details.map((r) => ({ ...r })) } }));
      expect(kinds(state)).toEqual(expect.arrayContaining(['collision', 'lost']));
      expect(checkBrowserSoak(state).violations.find((v) => v.kind === 'collision')?.message).toBe("orders 40 (step 6): the tab's create was written over the other device's record");
    });
  });
});

describe('a back-office write replaced by a push built before it', () => {
  const write = { step: 9, writer: 'register' as const, collection: 'customers' as const, id: '10', field: 'firstname', before: 'Jana', value: 'r#9' };
  /** A tab pulled customer 10 at version 5, the back office wrote version 6 at T + 100, then a POST carried the old name (ids as the wire has them: bare numbers). */
  function traffic(pulledV: number, pulledAt: number) {
    const watch = new ServiceWatch();
    watch.sawPage(1, 'customers', JSON.stringify([{ id: 10, _v: pulledV, firstname: 'Jana' }]), pulledAt);
    const post = watch.sawPost(1, 'customers', JSON.stringify([{ id: 10, firstname: 'd1#8' }]), T + 150);
    post.endedAt = T + 160;
    return watch;
  }

  it('is explained when no tab had been sent the write before the POST went out', () => {
    expect(replacedBlind(traffic(5, T), write, { at: T + 100, v: 6 })).toBe(true);
  });

  it('is not explained when a tab had been sent it: the mirror knew and wrote over it', () => {
    expect(replacedBlind(traffic(6, T + 120), write, { at: T + 100, v: 6 })).toBe(false);
  });

  it('is not explained by a POST that ended before the write, or that carried the written value', () => {
    const before = traffic(5, T);
    before.posts[0]!.endedAt = T + 90;
    expect(replacedBlind(before, write, { at: T + 100, v: 6 })).toBe(false);
    const same = new ServiceWatch();
    same.sawPost(1, 'customers', JSON.stringify([{ id: '10', firstname: 'r#9' }]), T + 150).endedAt = T + 160;
    expect(replacedBlind(same, write, { at: T + 100, v: 6 })).toBe(false);
  });
});
