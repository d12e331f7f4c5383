/**
 * The browser suites' `describe` per engine: a suite for each engine `ENGINES` selects, skipped
 * where the engine is not installed, with its name and the command that installs it in the
 * suite's title. Under `CI=true` nothing is skipped: a missing engine fails its suites, as CI
 * installs every engine first.
 */
import { describe, type TestOptions } from 'vitest';
import { missingEngine, selectedEngines, type EngineName } from '../../scripts/engines/index.js';

/** Whether a missing engine fails the run rather than being skipped. */
export const ENGINES_REQUIRED = process.env.CI === 'true';

/** Why `engine`'s suites are skipped here, or `undefined` when they run. */
export function engineSkipped(engine: EngineName): string | undefined {
  return ENGINES_REQUIRED ? undefined : missingEngine(engine);
}

/** The selected engines that run here (see {@link engineSkipped}). */
export function runnableEngines(): EngineName[] {
  return selectedEngines().filter((engine) => engineSkipped(engine) === undefined);
}

/**
 * `describe.each(selectedEngines())(title, options, suite)`, with a missing engine's suite
 * skipped and titled with why: `title` names the engine where it says `%s`. `among` keeps only
 * those engines (a suite one engine is enough for).
 */
export function describeEngines(title: string, options: TestOptions, suite: (engine: EngineName) => void, among?: readonly EngineName[]): void {
  const engines = selectedEngines().filter((name) => !among || among.includes(name));
  // A file whose engines `ENGINES` leaves out still has a suite: skipped, saying why (vitest fails a file with none).
  if (engines.length === 0) describe.skip(`${title.replace('%s', (among ?? []).join(', '))} (skipped: ENGINES selects none of its engines)`, () => undefined);
  for (const engine of engines) {
    const name = title.replace('%s', engine);
    const skipped = engineSkipped(engine);
    if (skipped) describe.skip(`${name} (skipped: ${skipped})`, options, () => suite(engine));
    else describe(name, options, () => suite(engine));
  }
}
