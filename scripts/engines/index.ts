/**
 * The browser engines the package is proven in, behind one shape ({@link EngineBrowser}): Chromium,
 * Firefox and WebKit, each from Debian's packages. `ENGINES=chromium,webkit` narrows the suites to
 * some of them (all three by default).
 */
import { launchChromium } from './chromium.js';
import { ENGINE_NAMES, type EngineBrowser, type EngineName, type EngineTab, type LaunchOptions, type PageValue } from './engine.js';
import { launchFirefox } from './firefox.js';
import { launchWebKit } from './webkit.js';

export { enginePrograms, installCommand, missingEngine, type EngineProgram } from './programs.js';
export { ENGINE_NAMES, type EngineBrowser, type EngineName, type EngineTab, type LaunchOptions, type PageValue };

/** Launches `engine` with a fresh profile. */
export function launchEngine(engine: EngineName, options: LaunchOptions = {}): Promise<EngineBrowser> {
  switch (engine) {
    case 'chromium':
      return launchChromium(options);
    case 'firefox':
      return launchFirefox(options);
    case 'webkit':
      return launchWebKit(options);
  }
}

/**
 * The engines to run: `ENGINES` (comma-separated names; `none` for none, as `npm run test:node` says), else
 * all three. An unknown name is an error.
 */
export function selectedEngines(value = process.env.ENGINES): EngineName[] {
  if (!value) return [...ENGINE_NAMES];
  if (value.trim() === 'none') return [];
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(ENGINE_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`ENGINES: unknown engine ${unknown.join(', ')} (known: ${ENGINE_NAMES.join(', ')})`);
  return names as EngineName[];
}

/** Whether `value` names an engine. */
export function isEngineName(value: string): value is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(value);
}
