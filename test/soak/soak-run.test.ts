import { describe, expect, it } from 'vitest';
import { checkSoak, type AnyRecord } from '../../scripts/soak/checks.js';
import { runSoak } from '../../scripts/soak/run-soak.js';

describe('a short soak run', () => {
  it('passes every check, and its checks catch the same state altered', async () => {
    // At least 30 operations whatever the machine's load (a loaded one did 9 in the 6 s).
    const result = await runSoak({ seed: 11, minutes: 0.1, devices: 2 }, { keepState: true, minOperations: 30 });
    expect(result.check.violations).toEqual([]);
    expect(result.operations.total).toBeGreaterThan(20);
    expect(result.devices.every((d) => d.syncs > 0)).toBe(true);
    expect(result.check.writes.checked).toBeGreaterThan(10);
    expect(result.check.createsFound).toBe(new Set(result.state!.ledger.creates.map((c) => `${c.collection}:${c.id}`)).size);
    expect(result.registers.sales).toBeGreaterThan(0);

    // The same state, with a device create applied twice on the server and one field changed on a device.
    const state = result.state!;
    const created = state.ledger.creates[0]!;
    const original = state.server[created.collection].find((r) => r.id === created.id)!;
    const server = { ...state.server, [created.collection]: [...state.server[created.collection], { ...original, id: '999999999999999990' }] };
    const device = state.devices[1]!;
    const [first, ...rest] = device.records.customers;
    const altered = { ...device, records: { ...device.records, customers: [{ ...first, lastname: 'not on the server' } as AnyRecord, ...rest] } };
    const again = checkSoak({ ...state, server, devices: [state.devices[0]!, altered] });
    expect(again.duplicated).toBe(1);
    expect(again.violations.map((v) => `${v.kind}: ${v.message}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^duplicated: ${created.collection}: the server holds \\d+ records, 1 more than`)),
        `differs: device 1: ${created.collection} 999999999999999990: missing on the device`,
        `differs: device 2: customers ${String(first!.id)}: differs in lastname ("not on the server" vs ${JSON.stringify(first!.lastname)})`,
      ]),
    );
  }, 60_000);
});
