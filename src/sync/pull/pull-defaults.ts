/**
 * Defaults of the pull and the reconcile sweep, in one place (`MIRROR_DEFAULTS` shows them to
 * apps): the most records asked per page (each collection's own maximum applies on top), the most
 * pages of a pull written in one transaction (measured: `npm run bench -- browser-transactions`), and the
 * safety margin under the server time of a traversal's start (docs/design.md, decision 3).
 */
export const PULL_DEFAULTS = { pageLimit: 400, pagesPerTransaction: 8, skewMarginMs: 60_000 } as const;
