// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mirror } from '../../src/mirror/mirror.js';
import {
  MirrorProvider,
  useConflicts,
  useLiveQuery,
  useMirrorStatus,
  usePending,
  useRemove,
  useSave,
  useSyncProgress,
} from '../../src/react/index.js';
import { startMirrorFixture, type MirrorFixture } from '../mirror/fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  cleanup();
  await fixture?.close();
  fixture = undefined;
});

const text = (id: string) => screen.getByTestId(id).textContent;

/** A mirror that is provided but not started, so that each test decides when it syncs. */
async function providedMirror(): Promise<Mirror> {
  fixture = await startMirrorFixture();
  return fixture.mirror();
}

function Provided({ mirror, children }: { mirror: Mirror; children: React.ReactNode }) {
  return <MirrorProvider mirror={mirror} start={false}>{children}</MirrorProvider>;
}

describe('useLiveQuery', () => {
  function Customers({ prefix }: { prefix: string }) {
    const names = useLiveQuery(
      async (mirror) => (await mirror.db.customers.toArray()).map((c) => String(c.firstname ?? '')).filter((n) => n.startsWith(prefix)).sort(),
      [prefix],
      'loading' as const,
    );
    return <p data-testid="names">{names === 'loading' ? 'loading' : names.join(',')}</p>;
  }

  it('renders the default until the mirror and the first result are there, then re-renders on every change', async () => {
    const mirror = await providedMirror();
    render(<Customers prefix="Zz" />);
    expect(text('names')).toBe('loading'); // no provider: the default, no throw

    cleanup();
    const view = render(<Provided mirror={mirror}><Customers prefix="Zz" /></Provided>);
    await waitFor(() => expect(text('names')).toBe(''));
    await act(async () => void (await mirror.save('customers', { company: null, firstname: 'Zzuzana' })));
    await waitFor(() => expect(text('names')).toBe('Zzuzana'));

    // A pull is a change too.
    await act(async () => void (await mirror.syncNow({ collections: ['customers'] })));
    const someone = fixture!.sim.store.list('customers')[0]!;
    fixture!.sim.store.write('customers', { id: someone.id, firstname: 'Zzdeněk' });
    await act(async () => void (await mirror.syncNow({ collections: ['customers'] })));
    await waitFor(() => expect(text('names')).toBe('Zzdeněk,Zzuzana'));

    // New deps, new query.
    view.rerender(<Provided mirror={mirror}><Customers prefix="Zzd" /></Provided>);
    await waitFor(() => expect(text('names')).toBe('Zzdeněk'));
  });
});

describe('useMirrorStatus and useSyncProgress', () => {
  function Status() {
    const status = useMirrorStatus();
    const progress = useSyncProgress();
    const shops = progress.collections.shops;
    return (
      <>
        <p data-testid="phase">{status.phase}</p>
        <p data-testid="pending">{status.pendingPushes}</p>
        <p data-testid="shops">{shops ? `${shops.records}:${String(shops.done)}` : 'none'}</p>
      </>
    );
  }

  it('show an idle, empty status with no mirror, then follow the mirror through a sync', async () => {
    const mirror = await providedMirror();
    render(<Status />);
    expect([text('phase'), text('pending'), text('shops')]).toEqual(['idle', '0', 'none']);
    cleanup();

    render(<Provided mirror={mirror}><Status /></Provided>);
    await act(async () => void (await mirror.save('customers', { company: null, firstname: 'Ema' })));
    await waitFor(() => expect(text('pending')).toBe('1'));
    await act(async () => void (await mirror.syncNow()));
    await waitFor(() => expect(text('pending')).toBe('0'));
    expect(text('shops')).toBe(`${fixture!.sim.store.count('shops')}:true`);
  });
});

describe('usePending and useConflicts', () => {
  function Outbox() {
    const pending = usePending();
    const { conflicts, resolve } = useConflicts();
    return (
      <>
        <p data-testid="pending">{pending.map((e) => `${e.collection}:${e.state}`).join(',')}</p>
        <p data-testid="conflicts">{conflicts.map((c) => c.key).join(',')}</p>
        {conflicts.map((c) => (
          <button key={c.key} data-testid="take-server" onClick={() => void resolve(c.key, 'server')}>
            take the server's
          </button>
        ))}
      </>
    );
  }

  it('list the edits waiting and the conflicts, and resolve one', async () => {
    const mirror = await providedMirror();
    await mirror.syncNow({ collections: ['customers'] });
    const customer = (await mirror.db.customers.toArray())[0]!;
    render(<Provided mirror={mirror}><Outbox /></Provided>);
    await waitFor(() => expect(text('pending')).toBe(''));

    await act(async () => void (await mirror.save('customers', { id: customer.id, firstname: 'Local' })));
    await waitFor(() => expect(text('pending')).toBe('customers:pending'));

    // The back office changes the same field meanwhile: a conflict.
    fixture!.sim.store.write('customers', { id: customer.id, firstname: 'Server' });
    await act(async () => void (await mirror.syncNow({ collections: ['customers'] })));
    await waitFor(() => expect(text('conflicts')).toBe(`customers:${customer.id}`));

    fireEvent.click(screen.getByTestId('take-server'));
    await waitFor(() => expect(text('conflicts')).toBe(''));
    await waitFor(() => expect(text('pending')).toBe(''));
    expect((await mirror.db.customers.get(customer.id))?.firstname).toBe('Server');
  });

  it('resolve rejects with a PosCloudError with no mirror', async () => {
    let resolve: ReturnType<typeof useConflicts>['resolve'] | undefined;
    function Grab() {
      resolve = useConflicts().resolve;
      return null;
    }
    render(<Grab />);
    await expect(resolve!('customers:1', 'server')).rejects.toMatchObject({ name: 'PosCloudError', message: expect.stringMatching(/no mirror yet/) });
  });
});

describe('useSave and useRemove', () => {
  function NewCustomer({ onSaved }: { onSaved: (id: string) => void }) {
    const { save, busy, fieldErrors, error, reset } = useSave('customers');
    const [email, setEmail] = useState<unknown>(42);
    return (
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // A value of the wrong type, as plain JavaScript or a form can hand over: the runtime check answers it.
          void save({ company: null, firstname: 'Ola', email: email as string }).then((id) => id && onSaved(id));
        }}
      >
        <p data-testid="busy">{String(busy)}</p>
        <p data-testid="email-error">{fieldErrors.email ?? ''}</p>
        <p data-testid="error">{error ? (error as Error).name : ''}</p>
        <button type="button" data-testid="fix" onClick={() => (setEmail('ola@example.com'), reset())}>fix</button>
        <button type="submit" data-testid="save">save</button>
      </form>
    );
  }

  it('shows a ValidationError per field, writes nothing, then saves once the field is fixed', async () => {
    const mirror = await providedMirror();
    const saved: string[] = [];
    render(<Provided mirror={mirror}><NewCustomer onSaved={(id) => saved.push(id)} /></Provided>);
    await waitFor(() => expect(text('busy')).toBe('false'));
    const before = await mirror.db.customers.count();

    // A number is no e-mail address.
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(text('error')).toBe('ValidationError'));
    expect(text('email-error')).not.toBe('');
    expect(await mirror.db.customers.count()).toBe(before);
    expect(await mirror.pending()).toEqual([]);

    fireEvent.click(screen.getByTestId('fix'));
    await waitFor(() => expect(text('error')).toBe(''));
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(text('email-error')).toBe('');
    expect((await mirror.db.customers.get(saved[0]!))?.email).toBe('ola@example.com');
  });

  it('useRemove deletes locally and queues it; a record that is not there is its error', async () => {
    const mirror = await providedMirror();
    const id = await mirror.save('customers', { company: null, firstname: 'Gone' });
    const outcomes: boolean[] = [];
    function Remove({ target }: { target: string }) {
      const { remove, error } = useRemove('customers');
      return (
        <>
          <button data-testid="remove" onClick={() => void remove(target).then((ok) => outcomes.push(ok))}>remove</button>
          <p data-testid="error">{error ? (error as Error).message : ''}</p>
        </>
      );
    }
    const view = render(<Provided mirror={mirror}><Remove target={id} /></Provided>);
    fireEvent.click(screen.getByTestId('remove'));
    await waitFor(() => expect(outcomes).toEqual([true]));
    expect((await mirror.db.customers.get(id))?._d).toBeTruthy();

    view.rerender(<Provided mirror={mirror}><Remove target="987654321" /></Provided>);
    fireEvent.click(screen.getByTestId('remove'));
    await waitFor(() => expect(outcomes).toEqual([true, false]));
    expect(text('error')).toMatch(/987654321/);
  });
});
