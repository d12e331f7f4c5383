/**
 * Why a sync failed, in words for the person at the counter: what went wrong, what to check, and
 * the technical line (error name and message, never the token) for whoever helps them.
 */

/** A sync failure as `mirror.status.value.lastError` holds it. */
export interface SyncError {
  name: string;
  message: string;
}

/** A failure explained. */
export interface SyncProblem {
  /** What went wrong, in plain words. */
  reason: string;
  /** What to check or do. */
  advice: string;
  /** `Name: message`, for support. */
  detail: string;
}

/** The HTTP status an error message names (`… 404 …`), if any. */
function statusOf(message: string): number | undefined {
  const match = /\b([45]\d\d)\b/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/**
 * Explains a sync failure of the service at `baseUrl`, seen from a page at `origin` (a browser
 * hides a refused cross-origin request behind the same "network" failure as an unreachable host).
 */
export function describeSyncProblem(error: SyncError, baseUrl: string, origin: string | undefined): SyncProblem {
  const detail = `${error.name}: ${error.message}`;
  const checkAddress = 'Check the service address in Settings.';
  switch (error.name) {
    case 'NetworkError':
      return {
        reason: `The service at ${baseUrl} cannot be reached.`,
        advice:
          `Check the address and the network` +
          (origin && !baseUrl.startsWith(origin) ? `, and that the service accepts requests from ${origin} (cross-origin requests).` : '.'),
        detail,
      };
    case 'TimeoutError':
      return { reason: `The service at ${baseUrl} did not answer in time.`, advice: 'Check the network; if it keeps happening, the address.', detail };
    case 'JsonParseError':
      return { reason: `${baseUrl} answered with something that is not the service's data.`, advice: checkAddress, detail };
    case 'QuotaExceededError':
      return { reason: 'This device has no room left for the data.', advice: 'Free some storage on the device, then sync again.', detail };
    default: {
      const status = statusOf(error.message);
      if (status === 404) return { reason: `${baseUrl} has no point-of-sale service (404 Not Found).`, advice: checkAddress, detail };
      if (status === 401 || status === 403) return { reason: 'The service refused the API token.', advice: 'Enter a valid token in Settings.', detail };
      if (status !== undefined && status >= 500) return { reason: `The service had a problem of its own (HTTP ${status}).`, advice: 'It usually passes; the app keeps trying.', detail };
      if (status !== undefined) return { reason: `The service refused a request (HTTP ${status}).`, advice: checkAddress, detail };
      return { reason: 'Syncing failed.', advice: checkAddress, detail };
    }
  }
}
