/**
 * Waits for requests sent together in one transaction and gives their results in order. When one
 * fails, the engine aborts the transaction and the others fail with an `AbortError` that says
 * nothing of why, in any order: the error thrown is the first that is not such an abort (the
 * `BulkError` holding WebKit's `QuotaExceededError`, say), so the cause reaches the caller.
 */
export async function writesTogether<T extends readonly unknown[]>(requests: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(requests);
  const reasons = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (reasons.length > 0) throw reasons.find((reason) => !isTransactionAbort(reason)) ?? reasons[0];
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

function isTransactionAbort(reason: unknown): boolean {
  return (reason instanceof Error || reason instanceof DOMException) && reason.name === 'AbortError';
}
