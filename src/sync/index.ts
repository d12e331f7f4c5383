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
 * - `cycle/`: one run's work: the pulls (each collection failing alone), the push and its read
 *   back, the sweeps when due; what a run did, and what a failure means; how far the pulls are,
 *   with an estimate of what is left (its probes are small pages of the service).
 * - `controller/`: the one owner of the sync's state (lifecycle, leadership, pause, the last run),
 *   with one queue of runs and one abort; it drives the schedule, the election and the cycle.
 * - `copies/`: other copies of the mirror in the same storage that still hold edits: finding them,
 *   and moving their edits into this outbox under the copy's lead, in the controller's queue.
 * - `latest-orders/`: the pollers of a register's latest orders, applied by the pull's rules.
 *
 * The mirror (`src/mirror/`) is the facade over them; it imports from the folders' index files.
 */
export type { SyncClient, PageLike, RejectedLike, TraversalQuery } from './sync-client.js';
export { joinSignals, untilAborted, type CallerSignal } from './caller-signal.js';
