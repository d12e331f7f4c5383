/**
 * A MiniBrowser (WebKitGTK) of its own, driven through its remote inspector instead of WebDriver:
 * W3C WebDriver has no profiler, and WebKitGTK's inspector server, which has one (the Web
 * Inspector protocol's `ScriptProfiler`), cannot be opened beside WebKitWebDriver (the driver
 * reaches the browser through the inspector itself; MiniBrowser started for it with
 * `WEBKIT_INSPECTOR_HTTP_SERVER` never starts the session). This browser is started with that
 * variable, on the engine layer's virtual display, and a WebSocket speaks the Web Inspector
 * protocol to its page: `Runtime.evaluate` to run page code, `ScriptProfiler` to sample it.
 *
 * It is not under automation, so it keeps its website data on disk (in a folder of its own), as a
 * person's browser does: under WebKitWebDriver, MiniBrowser's session is ephemeral and IndexedDB
 * lives in memory.
 *
 * Node 20 has a WebSocket only with `--experimental-websocket` (`bench/run.ts` and the test
 * configuration pass it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAME_HELPER, type EngineTab } from './engine.js';
import { freePort, MINIBROWSER_PATH } from './webkit.js';
import { display } from './xvfb.js';

/** A page of a MiniBrowser driven through its inspector. */
export interface InspectedPage {
  /** Evaluates `expression` in the page and resolves with its value (JSON-like). */
  evaluate<T>(expression: string): Promise<T>;
  /** Sends a command of the Web Inspector protocol to the page and resolves with its result. */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Resolves with the params of the next event named `method`. */
  next(method: string): Promise<Record<string, unknown>>;
  /** Calls `listener` with the params of every event named `method` until the returned function is called. */
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  /** The folder the browser was given as its home for data, cache and configuration (removed on close). */
  dataDir: string;
  /** The MiniBrowser's process id (its network and web processes are its children). */
  pid: number;
  /** Closes the connection and the browser, and removes its data folder. */
  close(): Promise<void>;
}

/**
 * The page as far as the bench's jobs need a tab (`runJob`): a function and its argument are sent
 * as source text, as the engine layer's tabs do.
 */
export async function inspectedTab(page: InspectedPage): Promise<Pick<EngineTab, 'engine' | 'evaluate'>> {
  await page.evaluate(NAME_HELPER);
  return {
    engine: 'webkit',
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => page.evaluate<R>(`(${fn.toString()})(${JSON.stringify(arg ?? null)})`),
  };
}

/** Starts MiniBrowser on `url` with its inspector server and connects to the page. */
export async function inspectWebKitPage(url: string): Promise<InspectedPage> {
  if (typeof WebSocket === 'undefined') throw new Error('the WebKit profile needs a WebSocket: run through `npm run bench` (node --experimental-websocket on Node 20)');
  const port = await freePort();
  const data = await mkdtemp(join(tmpdir(), 'pos-cloud-mirror-minibrowser-'));
  const browser = spawn(MINIBROWSER_PATH, [url], {
    env: {
      ...process.env,
      DISPLAY: await display(),
      LANG: 'en_US.UTF-8',
      WEBKIT_INSPECTOR_HTTP_SERVER: `127.0.0.1:${port}`,
      XDG_DATA_HOME: join(data, 'data'),
      XDG_CACHE_HOME: join(data, 'cache'),
      XDG_CONFIG_HOME: join(data, 'config'),
    },
    stdio: 'ignore',
  });
  try {
    const socket = await connect(port, url, browser);
    return await pageSession(socket, data, browser.pid!, async () => {
      socket.close();
      browser.kill();
      await new Promise((resolve) => (browser.exitCode === null ? browser.once('exit', resolve) : resolve(null)));
      await rm(data, { recursive: true, force: true });
    });
  } catch (error) {
    browser.kill();
    await rm(data, { recursive: true, force: true });
    throw error;
  }
}

/** Waits for the inspector server to list the page at `url`, and opens a WebSocket to it. */
async function connect(port: number, url: string, browser: ChildProcess): Promise<WebSocket> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (browser.exitCode !== null) throw new Error(`MiniBrowser ended at start (exit ${browser.exitCode})`);
    const listing = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text(), () => '');
    // The server lists each page with its address and its socket's path (`/socket/1/1/WebPage`).
    const row = listing.split('<tr>').find((r) => r.includes(url.replace(/&/g, '&amp;')) || r.includes(url));
    const path = row && /'(\/socket\/[^']+)'/.exec(row)?.[1];
    if (path) {
      const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`);
      await new Promise((resolve, reject) => {
        socket.addEventListener('open', resolve, { once: true });
        socket.addEventListener('error', () => reject(new Error(`the inspector's socket at ${path} refused the connection`)), { once: true });
      });
      return socket;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`MiniBrowser's inspector did not list ${url} within 30 s`);
}

/**
 * The protocol: the socket speaks to the page's target, whose id comes with `Target.targetCreated`;
 * commands go to it wrapped in `Target.sendMessageToTarget`, answers and events come back wrapped
 * in `Target.dispatchMessageFromTarget`.
 */
async function pageSession(socket: WebSocket, dataDir: string, pid: number, close: () => Promise<void>): Promise<InspectedPage> {
  let target: string | undefined;
  let targetReady: () => void = () => undefined;
  const targetKnown = new Promise<void>((resolve) => (targetReady = resolve));
  let lastId = 0;
  const answers = new Map<number, { resolve(result: Record<string, unknown>): void; reject(error: Error): void }>();
  const waiting = new Map<string, ((params: Record<string, unknown>) => void)[]>();
  const listening = new Map<string, Set<(params: Record<string, unknown>) => void>>();
  socket.addEventListener('message', (event) => {
    const outer = JSON.parse(String(event.data)) as { method?: string; params?: Record<string, unknown> };
    if (outer.method === 'Target.targetCreated') {
      target ??= (outer.params!.targetInfo as { targetId: string }).targetId;
      targetReady();
    }
    if (outer.method !== 'Target.dispatchMessageFromTarget') return;
    const inner = JSON.parse(String(outer.params!.message)) as { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; params?: Record<string, unknown> };
    if (inner.id !== undefined) {
      const answer = answers.get(inner.id);
      answers.delete(inner.id);
      if (inner.error) answer?.reject(new Error(`WebKit inspector: ${inner.error.message}`));
      else answer?.resolve(inner.result ?? {});
    } else if (inner.method) {
      const listeners = waiting.get(inner.method) ?? [];
      waiting.delete(inner.method);
      for (const listener of listeners) listener(inner.params ?? {});
      for (const listener of listening.get(inner.method) ?? []) listener(inner.params ?? {});
    }
  });
  // The browser gone (or its page's target): what waits for an answer fails, rather than waiting for ever.
  let closed = false;
  socket.addEventListener('close', () => {
    closed = true;
    for (const answer of answers.values()) answer.reject(new Error('WebKit inspector: the connection to the page closed (MiniBrowser ended?)'));
    answers.clear();
  });
  await Promise.race([targetKnown, new Promise((_, reject) => setTimeout(() => reject(new Error('WebKit inspector: no page target within 10 s')), 10_000))]);
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (closed) return reject(new Error(`WebKit inspector: ${method}: the connection to the page is closed (MiniBrowser ended?)`));
      const id = ++lastId;
      answers.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id: ++lastId, method: 'Target.sendMessageToTarget', params: { targetId: target, message: JSON.stringify({ id, method, params }) } }));
    });
  return {
    send,
    next: (method) => new Promise((resolve) => waiting.set(method, [...(waiting.get(method) ?? []), resolve])),
    on(method, listener) {
      const listeners = listening.get(method) ?? new Set();
      listening.set(method, listeners.add(listener));
      return () => listeners.delete(listener);
    },
    dataDir,
    pid,
    async evaluate<T>(expression: string) {
      const answer = (await send('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value?: unknown; description?: string }; wasThrown?: boolean };
      if (answer.wasThrown) throw new Error(`WebKit page: ${answer.result.description ?? 'an exception'}`);
      return answer.result.value as T;
    },
    close,
  };
}
