// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/index.js';

/** A server has no IndexedDB: the bindings must import and render without touching one. */
describe('server rendering', () => {
  it('imports the bindings with no IndexedDB and renders every hook in its empty state', async () => {
    expect(typeof (globalThis as { indexedDB?: unknown }).indexedDB).toBe('undefined');
    const react = await import('../../src/react/index.js');
    const fetch = vi.fn();
    const client = createClient({ baseUrl: 'https://pos.example.invalid', token: 'a-real-looking-token', userAgent: 'ssr test', fetch });

    function Page() {
      const mirror = react.useMirror();
      const status = react.useMirrorStatus();
      const progress = react.useSyncProgress();
      const names = react.useLiveQuery((m) => m.db.customers.toArray(), [], []);
      const pending = react.usePending();
      const { conflicts } = react.useConflicts();
      const { busy, fieldErrors } = react.useSave('customers');
      return (
        <ul>
          <li>{mirror ? 'mirror' : 'no mirror'}</li>
          <li>{status.phase}</li>
          <li>{Object.keys(progress.collections).length} collections</li>
          <li>{names.length} customers</li>
          <li>{pending.length} pending</li>
          <li>{conflicts.length} conflicts</li>
          <li>{String(busy)} {Object.keys(fieldErrors).length}</li>
        </ul>
      );
    }

    const html = renderToString(
      <react.MirrorProvider options={{ client }}>
        <Page />
      </react.MirrorProvider>,
    );
    expect(html).toBe('<ul><li>no mirror</li><li>idle</li><li>0<!-- --> collections</li><li>0<!-- --> customers</li><li>0<!-- --> pending</li><li>0<!-- --> conflicts</li><li>false<!-- --> <!-- -->0</li></ul>');
    expect(fetch).not.toHaveBeenCalled();
  });
});
