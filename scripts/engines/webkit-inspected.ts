/**
 * WebKit as an {@link EngineBrowser} of one tab, driven through MiniBrowser's inspector
 * (`webkit-inspector.ts`) instead of WebDriver: for what WebKitWebDriver does not survive. Killing
 * WebKitGTK's network process, which serves IndexedDB, ends a WebDriver session ("session deleted
 * because of page crash or hang"), and that session is ephemeral (IndexedDB in the killed process's
 * memory); this browser keeps its website data on disk, as a person's does, and its page lives on.
 *
 * One tab, opened on the first `goto` (MiniBrowser starts on that address); a script runs as the
 * WebDriver engine's does (started in the page, its outcome polled for). What needs a person's
 * input (click, fill, press), a reload, another tab or a screenshot is not offered.
 */
import { NAME_HELPER, type EngineBrowser, type EngineTab } from './engine.js';
import { descendants, killAll, lid, startedAgoMs } from './processes.js';
import { inspectWebKitPage, type InspectedPage } from './webkit-inspector.js';

/** How long a network process has run before it is killed (ms): see `killStorage`. */
const STARTING_MS = 1_500;

/** Launches nothing yet: MiniBrowser starts with the tab's first `goto`. */
export function launchInspectedWebKit(): Promise<EngineBrowser> {
  let page: InspectedPage | undefined;
  let tabs = 0;
  const pid = () => {
    if (!page) throw new Error('inspected WebKit: no page yet (the tab has not been sent anywhere)');
    return page.pid;
  };
  const pageProcesses = (): number[] => descendants(pid(), /WebKitWebProcess/);
  const pageLid = lid(pageProcesses);
  return Promise.resolve({
    engine: 'webkit',
    version: 'WebKitGTK (MiniBrowser, through its inspector)',
    async newTab() {
      if (++tabs > 1) throw new Error('inspected WebKit: one tab only');
      return inspectedTab(async (url) => (page = await inspectWebKitPage(url)), () => page);
    },
    pageProcesses,
    suspend: pageLid.suspend,
    async killStorage() {
      const pids = descendants(pid(), /WebKitNetworkProcess/);
      // WebKitGTK's UI process aborts (SIGTRAP, "readPIDFromPeer: Unexpected short read from PID
      // socket") when a network process it is starting dies before telling it its pid: one that
      // young is given time to finish starting.
      const wait = Math.max(0, ...pids.map((p) => STARTING_MS - (startedAgoMs(p) ?? STARTING_MS)));
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return killAll(pids);
    },
    async close() {
      pageLid.resumeAll();
      await page?.close();
    },
  });
}

/** Result of polling a job started in the page: its state, and its value or what it threw. */
type Job = ['running'] | ['done', unknown] | ['failed', string] | ['lost'];

let jobs = 0;

function inspectedTab(open: (url: string) => Promise<InspectedPage>, current: () => InspectedPage | undefined): EngineTab {
  const page = () => {
    const p = current();
    if (!p) throw new Error('inspected WebKit: the tab has not been sent anywhere yet');
    return p;
  };
  const notOffered = (what: string) => () => Promise.reject(new Error(`inspected WebKit: ${what} is not offered`));
  return {
    engine: 'webkit',
    async goto(url) {
      if (current()) throw new Error('inspected WebKit: the tab is sent to one address only, once');
      const opened = await open(url);
      // The inspector lists the page as soon as it starts loading; `goto` resolves, as elsewhere, after its `load`.
      for (const until = Date.now() + 30_000; (await opened.evaluate<string>('document.readyState')) !== 'complete'; ) {
        if (Date.now() > until) throw new Error(`inspected WebKit: ${url} did not finish loading within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async evaluate(fn, arg) {
      const id = JSON.stringify(`job-${++jobs}`);
      await page().evaluate(
        `${NAME_HELPER}
         (() => {
           const jobs = (window.__engineJobs ??= {});
           const job = (jobs[${id}] = ['running']);
           Promise.resolve().then(() => (${fn.toString()})(${JSON.stringify(arg ?? null)})).then(
             (value) => { job[0] = 'done'; job[1] = value === undefined ? null : value; },
             (thrown) => { job[0] = 'failed'; job[1] = thrown && thrown.stack ? String(thrown.message) + '\\n' + String(thrown.stack) : String(thrown); });
         })()`,
      );
      for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
        const [state, payload] = await page().evaluate<Job>(
          `(() => {
             const jobs = window.__engineJobs;
             const job = jobs && jobs[${id}];
             if (!job) return ['lost'];
             if (job[0] !== 'running') delete jobs[${id}];
             return job;
           })()`,
        );
        if (state === 'done') return payload as never;
        if (state === 'failed') throw new Error(String(payload));
        if (state === 'lost') throw new Error('evaluate: the page navigated or reloaded before the script finished');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
    async addScript(code) {
      await page().evaluate(`(() => { const script = document.createElement('script'); script.textContent = ${JSON.stringify(code)}; document.head.append(script); })()`);
    },
    reload: notOffered('a reload'),
    click: notOffered('a click'),
    fill: notOffered('typing'),
    press: notOffered('a key press'),
    screenshot: notOffered('a screenshot'),
    async close() {
      await current()?.close();
    },
  };
}
