import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidationError } from '../../src/errors/index.js';
import { ID_EPOCH, composeId, decodeId, isId, TABLE_IDS } from '../../src/ids/index.js';

describe('composeId', () => {
  it('follows the spec formula ((ms_since_epoch * 64 + table_id) * 512) + random', () => {
    expect(composeId({ createdAt: ID_EPOCH, tableId: 0, random: 0 })).toBe('0');
    expect(composeId({ createdAt: ID_EPOCH + 1, tableId: 7, random: 5 })).toBe(String((1 * 64 + 7) * 512 + 5));
    // 2025-01-01T00:00:00Z in orders, random 430: past 2^53, so computed exactly in bigint.
    const ms = Date.UTC(2025, 0, 1) - ID_EPOCH;
    expect(composeId({ createdAt: Date.UTC(2025, 0, 1), tableId: TABLE_IDS.orders, random: 430 })).toBe(
      ((BigInt(ms) * 64n + 7n) * 512n + 430n).toString(),
    );
  });

  it('round-trips with decodeId for any parts in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: ID_EPOCH, max: ID_EPOCH + 2 ** 40 }),
        fc.integer({ min: 0, max: 63 }),
        fc.integer({ min: 0, max: 511 }),
        (createdAt, tableId, random) => {
          const id = composeId({ createdAt, tableId, random });
          expect(isId(id)).toBe(true);
          expect(decodeId(id)).toEqual({ createdAt, tableId, random });
        },
      ),
    );
  });

  it('rejects parts out of range with a ValidationError naming the part', () => {
    const bad = [
      [{ createdAt: ID_EPOCH - 1, tableId: 1, random: 0 }, 'createdAt'],
      [{ createdAt: ID_EPOCH + 0.5, tableId: 1, random: 0 }, 'createdAt'],
      [{ createdAt: ID_EPOCH, tableId: 64, random: 0 }, 'tableId'],
      [{ createdAt: ID_EPOCH, tableId: -1, random: 0 }, 'tableId'],
      [{ createdAt: ID_EPOCH, tableId: 1, random: 512 }, 'random'],
      [{ createdAt: ID_EPOCH, tableId: 1, random: 1.5 }, 'random'],
    ] as const;
    for (const [parts, field] of bad) {
      const error = catchError(() => composeId(parts));
      expect(isValidationError(error)).toBe(true);
      expect(error).toMatchObject({ issues: [{ path: [field] }] });
      expect((error as Error).message).toContain(field);
    }
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
