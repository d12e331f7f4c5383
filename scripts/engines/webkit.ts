// webdriverio's chainable elements are thenables its types do not declare as such: awaiting them resolves the element.
/* eslint-disable @typescript-eslint/await-thenable */
/**
 * WebKit: WebKitGTK's MiniBrowser from Debian (`libwebkit2gtk-4.1-0`), driven by webdriverio over
 * W3C WebDriver through `WebKitWebDriver` (`webkit2gtk-driver`), on a virtual display (Xvfb).
 *
 * One WebDriver session is one browser, one profile: each tab is a window of it, so tabs share
 * IndexedDB, Web Locks and BroadcastChannel. WebDriver talks to one window at a time and a script
 * holds the session until it returns, so a long `evaluate` would stall every other tab: here it
 * starts the work in the page and polls for its result in short scripts, letting other tabs'
 * commands in between, as they would run in a person's browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { Key, remote } from 'webdriverio';
import { NAME_HELPER, type EngineBrowser, type EngineTab, type LaunchOptions } from './engine.js';
import { descendants, lid } from './processes.js';
import { miniBrowserProgram, requireProgram, webkitDriverProgram } from './programs.js';
import { display } from './xvfb.js';

/** MiniBrowser (`MINIBROWSER_PATH` overrides), for what runs it outside WebDriver; its Debian path when it is missing. */
export const MINIBROWSER_PATH = miniBrowserProgram().path ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

type Session = Awaited<ReturnType<typeof remote>>;

/** Launches MiniBrowser under WebKitWebDriver. */
export async function launchWebKit(options: LaunchOptions = {}): Promise<EngineBrowser> {
  const driverPath = requireProgram(webkitDriverProgram());
  const miniBrowserPath = requireProgram(miniBrowserProgram());
  if (options.storageLimit !== undefined) {
    throw new Error('WebKit: MiniBrowser offers no storage limit (its automation session keeps IndexedDB in memory, with no quota a test can reach)');
  }
  const port = await freePort();
  const driver = spawn(driverPath, [`--port=${port}`, '--host=127.0.0.1'], {
    env: localeEnv(options.locale ?? 'en-US', await display()),
    stdio: process.env.ENGINE_DEBUG ? 'inherit' : 'ignore',
  });
  try {
    await listening(port, driver);
    const session = await remote({
      hostname: '127.0.0.1',
      port,
      logLevel: 'silent',
      // A command is sent once: a script run twice would save twice. The driver is up before this.
      connectionRetryCount: 0,
      capabilities: {
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation', `--time-zone=${options.timezone ?? 'Europe/Prague'}`] },
      } as WebdriverIO.Capabilities,
    });
    return webkitBrowser(session, driver, options.viewport ?? { width: 1280, height: 860 });
  } catch (error) {
    driver.kill();
    throw error;
  }
}

/**
 * The environment MiniBrowser starts in: WebKitGTK takes the page's language from the POSIX locale
 * (`LANG=en_US.UTF-8` gives `en-US`; `LANG=C.UTF-8` gives `C`, as on a kiosk nobody set up).
 */
function localeEnv(locale: string, displayName: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: displayName, LANG: locale === 'C' ? 'C.UTF-8' : `${locale.replace('-', '_')}.UTF-8` };
  delete env.LANGUAGE;
  delete env.LC_ALL;
  delete env.LC_MESSAGES;
  return env;
}

function webkitBrowser(session: Session, driver: ChildProcess, viewport: { width: number; height: number }): EngineBrowser {
  // Every command goes to one window: a queue keeps each tab's switch and command together.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(command: () => Promise<T>): Promise<T> => {
    const run = queue.then(command);
    queue = run.catch(() => undefined);
    return run;
  };
  const inWindow: InWindow = (handle, command) =>
    serial(async () => {
      await session.switchToWindow(handle);
      return command();
    });
  const keeper = session.getWindowHandle();
  const version = `WebKitGTK ${String(session.capabilities.browserVersion ?? 'unknown')} (MiniBrowser)`;
  const pageProcesses = (): number[] => descendants(driver.pid!, /WebKitWebProcess/);
  const pageLid = lid(pageProcesses);
  return {
    engine: 'webkit',
    version,
    async newTab() {
      // The session's first window stays open, blank, so that closing every tab never ends the session.
      // WebDriver opens a window from the current one, which must still be open: the keeper is.
      const handle = await inWindow(await keeper, async () => (await session.createWindow('window')).handle);
      await inWindow(handle, () => session.setWindowSize(viewport.width, viewport.height));
      return webkitTab(session, handle, inWindow, keeper);
    },
    pageProcesses,
    suspend: pageLid.suspend,
    async close() {
      pageLid.resumeAll();
      await session.deleteSession().catch(() => undefined);
      driver.kill();
    },
  };
}

type InWindow = <T>(handle: string, command: () => Promise<T>) => Promise<T>;

/** Result of polling a job started in the page: its state, and its value or what it threw. */
type Job = ['running'] | ['done', unknown] | ['failed', string] | ['lost'];

let jobs = 0;

function webkitTab(session: Session, handle: string, inWindow: InWindow, keeper: Promise<string>): EngineTab {
  const run = <T>(command: () => Promise<T>) => inWindow(handle, command);
  return {
    engine: 'webkit',
    async goto(url) {
      await run(() => session.url(url));
    },
    async reload() {
      await run(() => session.refresh());
    },
    async evaluate(fn, arg) {
      const id = `job-${++jobs}`;
      // The page starts the work and keeps its outcome; nothing waits on it inside WebDriver.
      await run(() =>
        session.execute(
          `${NAME_HELPER}
           const [arg, id] = arguments;
           const jobs = (window.__engineJobs ??= {});
           const job = (jobs[id] = ['running']);
           Promise.resolve().then(() => (${fn.toString()})(arg)).then(
             (value) => { job[0] = 'done'; job[1] = value === undefined ? null : value; },
             (thrown) => { job[0] = 'failed'; job[1] = thrown && thrown.stack ? String(thrown.message) + '\\n' + String(thrown.stack) : String(thrown); });`,
          arg ?? null,
          id,
        ),
      );
      for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
        // An array, never an object: a WebDriver client reads an object with an `error` key as a failed command.
        const [state, payload] = await run(
          () =>
            session.execute(
              `const jobs = window.__engineJobs;
               const job = jobs && jobs[arguments[0]];
               if (!job) return ['lost'];
               if (job[0] !== 'running') delete jobs[arguments[0]];
               return job;`,
              id,
            ) as Promise<Job>,
        );
        if (state === 'done') return payload as never;
        if (state === 'failed') throw new Error(String(payload));
        if (state === 'lost') throw new Error('evaluate: the page navigated or reloaded before the script finished');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
    async addScript(code) {
      await run(() =>
        session.execute((source: string) => {
          const script = document.createElement('script');
          script.textContent = source;
          document.head.append(script);
        }, code),
      );
    },
    async click(selector) {
      await run(async () => (await session.$(selector)).click());
    },
    async fill(selector, value) {
      await run(async () => {
        const element = await session.$(selector);
        if (value !== '') return element.setValue(value);
        // WebDriver refuses to send no text, and its Clear fires no input event: select everything and delete it, as a person does.
        await element.click();
        await session.keys([Key.Ctrl, 'a']);
        await session.keys(Key.Backspace);
      });
    },
    async press(selector, key) {
      await run(async () => {
        await (await session.$(selector)).click();
        await session.keys(key);
      });
    },
    async screenshot(path) {
      await run(() => session.saveScreenshot(path));
    },
    async close() {
      await run(async () => {
        await session.closeWindow();
        // webdriverio answers a closed window by switching to another one, unawaited: a command of
        // ours after it lets that switch finish first, so a browser closed next cannot fail it.
        await session.switchToWindow(await keeper);
      });
    },
  };
}

/** Resolves once the driver accepts connections on `port` (it takes a moment to start). */
async function listening(port: number, driver: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver ended at start (exit ${driver.exitCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`WebKitWebDriver did not listen on port ${port} within 5 s`);
}

/** A free TCP port on the loopback interface (for WebKitWebDriver, or MiniBrowser's inspector server). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
