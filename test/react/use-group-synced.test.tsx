// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MirrorProvider, useGroupSynced } from '../../src/react/index.js';
import { startMirrorFixture, type MirrorFixture } from '../mirror/fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  cleanup();
  await fixture?.close();
  fixture = undefined;
});

const text = (id: string) => screen.getByTestId(id).textContent;

function Ready({ group }: { group: string }) {
  return <p data-testid="ready">{String(useGroupSynced(group))}</p>;
}

/** Shows what its children threw while rendering. */
class Caught extends Component<{ children: ReactNode }, { error: Error | undefined }> {
  override state = { error: undefined as Error | undefined };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p data-testid="error">{this.state.error.message}</p> : this.props.children;
  }
}

describe('useGroupSynced', () => {
  it('is false with no mirror and until the group is synced, then true', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    render(<Ready group="reference" />);
    expect(text('ready')).toBe('false');
    cleanup();

    render(<MirrorProvider mirror={mirror} start={false}><Ready group="reference" /></MirrorProvider>);
    expect(text('ready')).toBe('false');
    await act(async () => void (await mirror.syncNow()));
    await waitFor(() => expect(text('ready')).toBe('true'));
  });

  it('throws a ValidationError naming the groups for a group the mirror does not have', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    // React reports an error caught by a boundary on the console: expected here.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<MirrorProvider mirror={mirror} start={false}><Caught><Ready group="sales" /></Caught></MirrorProvider>);
    expect(text('error')).toBe('useGroupSynced: unknown sync group "sales"; known: reference, catalogue, recent, history');
    quiet.mockRestore();
  });
});
