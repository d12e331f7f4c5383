/**
 * Reading a page the same way in every engine: each helper is one `evaluate` of page code, so
 * Chromium, Firefox and WebKit answer it alike. Waits poll; they never sleep a fixed time.
 */
import type { EngineTab } from '../../scripts/engines/index.js';

/** Patience of a wait for what the page shows (the machine may be busy with other suites). */
export const POLL = { timeout: 15_000, interval: 100 } as const;
/** Patience for what crosses the network: a push, a pull, a leader taking over. */
export const SLOW = { timeout: 45_000, interval: 200 } as const;

/** The text of the first element matching `selector`, or null when there is none. */
export function text(tab: EngineTab, selector: string): Promise<string | null> {
  return tab.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);
}

/** The texts of every element matching `selector`, in document order. */
export function texts(tab: EngineTab, selector: string): Promise<string[]> {
  return tab.evaluate((s) => [...document.querySelectorAll(s)].map((e) => e.textContent ?? ''), selector);
}

/** How many elements match `selector`. */
export function count(tab: EngineTab, selector: string): Promise<number> {
  return tab.evaluate((s) => document.querySelectorAll(s).length, selector);
}

/** An attribute of the first element matching `selector` (null when either is missing). */
export function attribute(tab: EngineTab, selector: string, name: string): Promise<string | null> {
  return tab.evaluate(([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null, [selector, name] as const);
}

/** The value of the first input, select or textarea matching `selector`. */
export function inputValue(tab: EngineTab, selector: string): Promise<string | null> {
  return tab.evaluate((s) => (document.querySelector(s) as HTMLInputElement | null)?.value ?? null, selector);
}

/**
 * Polls `read` until `accept` says yes, and returns the last value read; throws with `what` and the
 * last value when `timeout` passes first.
 */
export async function waitUntil<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean = Boolean, patience: { timeout: number; interval: number } = POLL): Promise<T> {
  const deadline = Date.now() + patience.timeout;
  let last: T | undefined;
  let failure: unknown;
  for (;;) {
    try {
      last = await read();
      failure = undefined;
      if (accept(last)) return last;
    } catch (error) {
      // A page that is navigating answers nothing for a moment.
      failure = error;
    }
    if (Date.now() > deadline) {
      const seen = failure === undefined ? `last seen: ${JSON.stringify(last)}` : `last error: ${String(failure)}`;
      throw new Error(`timed out after ${patience.timeout} ms waiting for ${what} (${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, patience.interval));
  }
}

/** Waits until an element matches `selector`. */
export async function waitForSelector(tab: EngineTab, selector: string, patience: { timeout: number; interval: number } = POLL): Promise<void> {
  await waitUntil(`an element matching ${selector}`, () => count(tab, selector), (n) => n > 0, patience);
}

/** Whether the first element matching `selector` is shown (it exists and takes up room on the page). */
export function visible(tab: EngineTab, selector: string): Promise<boolean> {
  return tab.evaluate((s) => (document.querySelector(s)?.getClientRects().length ?? 0) > 0, selector);
}
