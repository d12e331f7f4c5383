import { createClient } from '../client/index.js';
import type { SyncClient } from '../sync/index.js';
import { FORWARDED_CLIENT_OPTIONS, type MirrorOptions } from './options.js';

/**
 * The client a mirror syncs through: the one given, or one made from the connection options and
 * the client options the mirror passes on (`fetch`, `timeoutMs`, `retry`, `clientUserAgentHeader`,
 * `onRetry`), which `createClient` checks. Call after `validateMirrorOptions`.
 */
export function clientFor(options: MirrorOptions): SyncClient {
  if (options.client) return options.client;
  const forwarded = Object.fromEntries(FORWARDED_CLIENT_OPTIONS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
  return createClient({ baseUrl: options.baseUrl!, token: options.token!, userAgent: options.userAgent!, ...forwarded });
}
