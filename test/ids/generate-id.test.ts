import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { IDS_PER_MS, TABLE_IDS, decodeId, generateId, isId, type TableName } from '../../src/ids/index.js';

describe('generateId', () => {
  it('makes 100,000 distinct, increasing ids of one table in a tight loop, close to the real time', () => {
    const count = 100_000;
    const ids = new Array<string>(count);
    const before = new Float64Array(count);
    const after = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      before[i] = Date.now();
      ids[i] = generateId('transactions');
      after[i] = Date.now();
    }
    expect(new Set(ids).size).toBe(count);
    // Checked in plain code and reported together: 100,000 expect() calls would dominate the run.
    const problems: string[] = [];
    let previous = -1n;
    for (let i = 0; i < count && problems.length < 10; i++) {
      const id = ids[i]!;
      const value = BigInt(id);
      const { createdAt, tableId } = decodeId(id);
      if (!isId(id)) problems.push(`#${i} ${id}: not canonical`);
      if (value <= previous) problems.push(`#${i} ${id}: not above the previous id`);
      if (value % 10n !== 0n) problems.push(`#${i} ${id}: not a multiple of 10`);
      if (tableId !== TABLE_IDS.transactions) problems.push(`#${i} ${id}: table ${tableId}`);
      // The documented bound: not before the clock, at most ceil(n / 51) ms after it.
      if (createdAt < before[i]!) problems.push(`#${i} ${id}: created ${createdAt}, before the clock ${before[i]}`);
      const lead = createdAt - after[i]!;
      if (lead > Math.ceil((i + 1) / IDS_PER_MS)) problems.push(`#${i} ${id}: ${lead} ms ahead of the clock`);
      previous = value;
    }
    expect(problems).toEqual([]);
  });

  it('uses the table id of TABLE_IDS for every named table', () => {
    expect(TABLE_IDS).toEqual({
      customers: 2, employees: 4, order_details: 6, orders: 7, products: 11,
      product_price_matrix: 12, stock_history: 16, stockup: 18, transactions: 22, warehouses: 25,
    });
    for (const [name, tableId] of Object.entries(TABLE_IDS)) {
      expect(decodeId(generateId(name as TableName)).tableId).toBe(tableId);
    }
  });

  it('accepts any table id 0..63 and composes it into the id', () => {
    for (const tableId of [0, 1, 40, 63]) {
      const id = generateId(tableId, { now: Date.UTC(2026, 0, 1) });
      expect(decodeId(id).tableId).toBe(tableId);
      expect(BigInt(id) % 10n).toBe(0n);
    }
  });

  it.each([
    ['64', 64, /table id 64 is not an integer in 0\.\.63/],
    ['-1', -1, /table id -1/],
    ['2.5', 2.5, /table id 2.5/],
    ['an unknown name', 'shops', /unknown table "shops": expected one of customers, /],
    ['an inherited name', 'toString', /unknown table "toString"/],
    ['a numeric string', '7', /unknown table "7"/],
    ['null', null, /unknown table object/],
  ])('rejects table %s with a ValidationError on table', (_name, table, message) => {
    let error: unknown;
    try {
      generateId(table as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toEqual(['table']);
    expect((error as ValidationError).message).toMatch(message);
  });

  it('composes the time given as now, as its creation time', () => {
    const now = Date.UTC(2027, 5, 1);
    const { createdAt, tableId } = decodeId(generateId('stockup', { now, random: () => 0.25 }));
    expect({ createdAt, tableId }).toEqual({ createdAt: now, tableId: 18 });
  });
});
