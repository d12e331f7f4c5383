/**
 * The programs each browser engine needs, where they are, and the Debian packages that install
 * them: Chromium and Firefox ESR, and for WebKit WebKitWebDriver, the MiniBrowser it drives and a
 * virtual display (Xvfb, unless `DISPLAY` names one). Each is found on `PATH` unless its variable
 * names it (`CHROMIUM_PATH`, `FIREFOX_PATH`, `WEBKIT_DRIVER_PATH`, `MINIBROWSER_PATH`); the
 * MiniBrowser, never on `PATH`, is looked for where Debian puts it.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { EngineName } from './engine.js';

/** A program an engine needs. */
export interface EngineProgram {
  /** What it is, as a person calls it (`Chromium`, `WebKitWebDriver`). */
  what: string;
  /** Where it is, or `undefined` when it is not installed. */
  path: string | undefined;
  /** The Debian packages that install it. */
  packages: string;
}

/** The executable file `name` in a folder of `PATH`, or `undefined`. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

const MINIBROWSER_DEBIAN = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Chromium. */
export const chromiumProgram = (): EngineProgram => ({ what: 'Chromium', path: process.env.CHROMIUM_PATH ?? onPath('chromium'), packages: 'chromium' });
/** Firefox ESR. */
export const firefoxProgram = (): EngineProgram => ({ what: 'Firefox ESR', path: process.env.FIREFOX_PATH ?? onPath('firefox-esr'), packages: 'firefox-esr' });
/** WebKitGTK's WebDriver. */
export const webkitDriverProgram = (): EngineProgram => ({
  what: 'WebKitWebDriver',
  path: process.env.WEBKIT_DRIVER_PATH ?? onPath('WebKitWebDriver'),
  packages: 'webkit2gtk-driver libwebkit2gtk-4.1-0',
});
/** WebKitGTK's MiniBrowser. */
export const miniBrowserProgram = (): EngineProgram => ({
  what: 'MiniBrowser',
  path: process.env.MINIBROWSER_PATH ?? (existsSync(MINIBROWSER_DEBIAN) ? MINIBROWSER_DEBIAN : undefined),
  packages: 'libwebkit2gtk-4.1-0',
});
/** The virtual display. */
export const xvfbProgram = (): EngineProgram => ({ what: 'Xvfb', path: onPath('Xvfb'), packages: 'xvfb' });

/** Every program `engine` needs (WebKit's display only when `DISPLAY` names none). */
export function enginePrograms(engine: EngineName): EngineProgram[] {
  switch (engine) {
    case 'chromium':
      return [chromiumProgram()];
    case 'firefox':
      return [firefoxProgram()];
    case 'webkit':
      return [webkitDriverProgram(), miniBrowserProgram(), ...(process.env.DISPLAY ? [] : [xvfbProgram()])];
  }
}

/** The command that installs everything `engine` needs on Debian or Ubuntu. */
export function installCommand(engine: EngineName): string {
  const all: Record<EngineName, string> = {
    chromium: 'chromium',
    firefox: 'firefox-esr',
    webkit: 'webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb',
  };
  return `apt-get install ${all[engine]}`;
}

/** Why `engine` cannot run here (`Firefox ESR is not installed: apt-get install firefox-esr`), or `undefined` when it can. */
export function missingEngine(engine: EngineName): string | undefined {
  const missing = enginePrograms(engine).filter((program) => program.path === undefined);
  if (missing.length === 0) return undefined;
  return `${missing.map((program) => program.what).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed: ${installCommand(engine)}`;
}

/**
 * The path of `program`; throws, saying how to install it, when it is missing: an engine asked for
 * is never skipped here (the suites decide what to skip, `.ci/run` installs every engine).
 */
export function requireProgram(program: EngineProgram): string {
  if (program.path === undefined || !existsSync(program.path)) {
    throw new Error(`${program.what} is not installed${program.path ? ` at ${program.path}` : ' (not found on PATH)'}: the browser suites need it (apt-get install ${program.packages}; .ci/run does this)`);
  }
  return program.path;
}
