/**
 * A ledger a page keeps for one operation: every note is also recorded as a call, which the page
 * returns to the harness, and the harness plays it into the run's ledger, which lives outside the
 * browser (a tab that dies takes no evidence with it: a write counts once the harness has it).
 */
import { Ledger, type Writer } from '../../soak/ledger.js';
import type { CollectionName } from '../../../src/schema/collections.js';

/** One note of a {@link Ledger}, as data: its method and arguments. */
export type LedgerCall =
  | ['wrote', Parameters<Ledger['wrote']>]
  | ['removed', Parameters<Ledger['removed']>]
  | ['created', Parameters<Ledger['created']>]
  | ['conflict', Parameters<Ledger['conflict']>]
  | ['resolvedConflict', Parameters<Ledger['resolvedConflict']>];

/** A {@link Ledger} that also records its notes as {@link LedgerCall}s. */
export class RecordingLedger extends Ledger {
  readonly calls: LedgerCall[] = [];

  override wrote(...args: Parameters<Ledger['wrote']>): void {
    this.calls.push(['wrote', args]);
    super.wrote(...args);
  }

  override removed(...args: Parameters<Ledger['removed']>): void {
    this.calls.push(['removed', args]);
    super.removed(...args);
  }

  override created(...args: Parameters<Ledger['created']>): void {
    this.calls.push(['created', args]);
    super.created(...args);
  }

  override conflict(step: number, writer: Writer, collection: CollectionName, id: string, fields: readonly string[]): void {
    this.calls.push(['conflict', [step, writer, collection, id, [...fields]]]);
    super.conflict(step, writer, collection, id, fields);
  }

  override resolvedConflict(step: number, writer: Writer, collection: CollectionName, id: string, choice: 'local' | 'server', fields: readonly string[]): void {
    this.calls.push(['resolvedConflict', [step, writer, collection, id, choice, [...fields]]]);
    super.resolvedConflict(step, writer, collection, id, choice, fields);
  }
}

/** Plays recorded notes into `ledger`, in order. */
export function replay(ledger: Ledger, calls: readonly LedgerCall[]): void {
  for (const [method, args] of calls) (ledger[method] as (...a: unknown[]) => void)(...args);
}
