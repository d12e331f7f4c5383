import type { ValidationIssue } from '../errors/index.js';
import type { SchemaName } from '../schema/index.js';

/** A record of a list page that failed its read schema: kept for quarantine, not dropped. */
export interface RejectedRecord {
  /** The collection (or `categories`) the record was read as. */
  collection: SchemaName;
  /** Position of the record in the page as the server sent it. */
  index: number;
  /** The record as parsed from JSON, untouched. */
  raw: unknown;
  /** Every problem found. */
  issues: ValidationIssue[];
}
