import { z } from 'zod';

/**
 * Longest delay a timer can wait: `setTimeout` takes a signed 32-bit count of ms (about 24.8 days)
 * and fires at once for anything longer. Every option that ends up in a timer is checked against it.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a bad time limit (`timeoutMs`) is told, wherever it is checked. */
export const POSITIVE_MS_MESSAGE = `must be a number of ms > 0 and at most ${MAX_TIMER_MS} (the timer limit, about 24.8 days)`;

/** What a bad delay that may be 0 is told. */
export const DELAY_MS_MESSAGE = `must be a number of ms >= 0 and at most ${MAX_TIMER_MS} (the timer limit, about 24.8 days)`;

/** A time limit in ms that a timer can wait: > 0, at most {@link MAX_TIMER_MS}. */
export const positiveMs = z.number({ error: POSITIVE_MS_MESSAGE }).positive(POSITIVE_MS_MESSAGE).max(MAX_TIMER_MS, POSITIVE_MS_MESSAGE);

/** A delay in ms that a timer can wait, where 0 means "at once": >= 0, at most {@link MAX_TIMER_MS}. */
export const delayMs = z.number({ error: DELAY_MS_MESSAGE }).min(0, DELAY_MS_MESSAGE).max(MAX_TIMER_MS, DELAY_MS_MESSAGE);

/** True for a valid time limit in ms: a number > 0, at most {@link MAX_TIMER_MS}. */
export function isPositiveMs(value: unknown): boolean {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
}
