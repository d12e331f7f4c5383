import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { writesTogether } from '../../src/db/writes-together.js';

const later = <T>(ms: number, settle: () => T): Promise<Awaited<T>> => new Promise((resolve, reject) => setTimeout(() => {
  try {
    resolve(settle() as Awaited<T>);
  } catch (error) {
    reject(error as Error);
  }
}, ms));

describe('writes sent together in one transaction', () => {
  it('give their results in order', async () => {
    await expect(writesTogether([later(5, () => 'records'), undefined, later(1, () => 3)])).resolves.toEqual(['records', undefined, 3]);
  });

  it('throw the failure that aborted the transaction, not the aborts it caused, whichever came first', async () => {
    const quota = new Dexie.BulkError('bulkPut(): 1 of 200 operations failed', { 0: new DOMException('', 'QuotaExceededError') });
    const aborted = () => new Dexie.AbortError('Transaction aborted');
    const thrown = writesTogether([
      later(1, () => { throw aborted(); }),
      later(5, () => { throw quota; }),
      later(2, () => { throw new DOMException('The transaction was aborted', 'AbortError'); }),
    ]);
    await expect(thrown).rejects.toBe(quota);
  });

  it('throw the first abort when every failure is one', async () => {
    const first = new Dexie.AbortError('Transaction aborted');
    await expect(writesTogether([Promise.reject(first), later(1, () => { throw new Dexie.AbortError('again'); })])).rejects.toBe(first);
  });
});
