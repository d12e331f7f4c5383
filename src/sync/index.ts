/**
 * The sync engine: how the mirror and the service come to hold the same records. One folder per
 * concept, imports flowing one way (a folder imports only from those listed before it):
 *
 * - `sync-client.ts`: the REST client as the engine sees it (the port it pulls and pushes through).
 * - `records/`: how the engine reads a record: its data fields, tombstones, the wire form, the
 *   relations between collections (and so the order they are pushed in).
 * - `outbox/`: local edits: validated, written with their outbox entry in one transaction, folded
 *   together, and the snapshot of what a push sent.
 * - `conflicts/`: what a push does with a record the server changed since the edit: the check, the
 *   three-way merge, the strategy, and the app's resolution of a conflict row.
 * - `push/`: the outbox to the server: preparation, batches, write-ahead of in-flight batches,
 *   acknowledgement and rejections.
 * - `pull/`: the server to the mirror: traversals, checkpoints, applying pages, hydrations,
 *   quarantine, reconcile sweeps, the category tree, ingested records.
 * - `coordination/`: who syncs and when: leader election across tabs, the schedule, and the
 *   runtime's globals behind one replaceable interface.
 *
 * The mirror (`src/mirror/`) composes them; it imports from the folders' index files.
 */
export type { SyncClient, PageLike, RejectedLike, TraversalQuery } from './sync-client.js';
