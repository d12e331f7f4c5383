/**
 * What a page sees when a process serving the browser's storage dies under it (iOS ends WebKit's
 * network process, which serves IndexedDB, when an app goes to the background). Chromium here runs
 * a storage service in a utility process of its own (`--utility-sub-type=storage.mojom.StorageService`),
 * but its IndexedDB is served from the browser process: killing the service leaves every
 * connection as it was. Killing WebKitGTK's network process under WebKitWebDriver ends the
 * WebDriver session ("session deleted because of page crash or hang"), so WebKit is probed
 * outside WebDriver (`lost-storage-webkit.test.ts`). Firefox keeps IndexedDB in its parent
 * process, which cannot die alone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { matching } from '../../scripts/engines/processes.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('the storage process killed under a page in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('Chromium\'s storage service killed leaves IndexedDB connections open and working', async () => {
    const tab = await stage.openPage();
    await tab.evaluate((name) => (window as unknown as PageWindow).conformance.probeOpen(name), freshTenant('probe'));
    const service = matching(new RegExp(`--utility-sub-type=storage\\.mojom\\.StorageService.*${stage.browser.profileDir!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(service).toHaveLength(1);
    process.kill(service[0]!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const report = await tab.evaluate(() => (window as unknown as PageWindow).conformance.probeAfterKill());
    expect(report).toMatchObject({
      isOpenBefore: true,
      dexieCloseEvents: 0,
      rawCloseEvents: 0,
      dexieWrite: undefined,
      rawTransaction: undefined,
      dexieWriteAgain: undefined,
      reopen: undefined,
      isOpenAfter: true,
      // before, after-1, raw, after-2, after-reopen
      rowsAfterReopen: 5,
    });
    expect(report.liveAnswers.at(-1)).toBe(5);
    expectNoPageErrors(stage);
  });
}, ['chromium']);
