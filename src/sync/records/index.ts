/**
 * How the engine reads a record: which fields are data and how values compare (`fields.ts`),
 * when a record is deleted (`tombstone.ts`), what goes on the wire (`wire-record.ts`), and the
 * relation fields between collections with the order they are pushed in (`relations.ts`).
 * Pure functions, no I/O.
 */
export { diffFields, isMetaField, overlay, sameValue, setField } from './fields.js';
export { childReferences, mayReference, parentReferences, PUSH_ORDER, pushOrder } from './relations.js';
export { deletionFields, isTombstone } from './tombstone.js';
export { buildWireRecord, isStrippedField, stripForWire, type WireRecord } from './wire-record.js';
