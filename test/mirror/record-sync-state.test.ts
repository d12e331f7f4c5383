import { afterEach, describe, expect, it } from 'vitest';
import { clientThrough, isPost, startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('mirror.syncStateOf', () => {
  it('follows one record from in step to pending, sent, and in step again, live', async () => {
    fixture = await startMirrorFixture();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let posted: () => void = () => undefined;
    const posting = new Promise<void>((resolve) => (posted = resolve));
    const client = clientThrough(fixture.sim, async (request) => {
      if (!isPost(request, 'customers')) return;
      posted();
      await held;
    });
    const mirror = fixture.mirror({ client });
    await mirror.syncNow();
    const id = (await mirror.db.customers.toArray())[0]!.id;
    const seen: string[] = [];
    const subscription = mirror.live(() => mirror.syncStateOf('customers', id)).subscribe((s) => seen.push(s.state));
    await waitFor(mirror.live(() => mirror.syncStateOf('customers', id)), (s) => s.state === 'in-step');

    await mirror.save('customers', { id, note_internal: 'called back' });
    expect(await mirror.syncStateOf('customers', id)).toMatchObject({ state: 'pending', changed: ['note_internal'] });
    const sync = mirror.syncNow();
    await posting;
    expect(await mirror.syncStateOf('customers', id)).toMatchObject({ state: 'sent', changed: ['note_internal'] });
    release();
    await sync;
    expect(await mirror.syncStateOf('customers', id)).toEqual({ state: 'in-step' });
    await waitFor(mirror.live(() => mirror.syncStateOf('customers', id)), (s) => s.state === 'in-step');
    subscription.unsubscribe();
    expect(seen[0]).toBe('in-step');
    expect(seen).toContain('pending');
    expect(seen.at(-1)).toBe('in-step');
  });

  it('says why the server refused an edit, and which fields conflict', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow();
    const disputed = (await mirror.db.customers.toArray())[0]!.id;
    // A record that passed local validation once but that the server refuses (a stale schema, say).
    const refused = await mirror.save('customers', { company: null });
    await mirror.db.customers.update(refused, { email: 'not-an-e-mail' });
    await mirror.save('customers', { id: disputed, note_internal: 'mine' });
    fixture.sim.store.write('customers', { id: disputed, note_internal: 'theirs' });
    await mirror.syncNow();
    expect(await mirror.syncStateOf('customers', refused)).toMatchObject({ state: 'rejected', reason: expect.stringMatching(/email/) as string });
    expect(await mirror.syncStateOf('customers', disputed)).toMatchObject({ state: 'conflict', fields: ['note_internal'], changed: ['note_internal'] });
    // The conflict row says what each side changed since both last agreed.
    const [conflict] = await mirror.conflicts();
    expect(conflict).toMatchObject({ id: disputed, localChanged: ['note_internal'] });
    expect(conflict!.serverChanged).toContain('note_internal');
  });

  it('refuses an unknown collection and a bad id with a ValidationError', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await expect(mirror.syncStateOf('clients' as never, '1')).rejects.toMatchObject({ code: 'validation' });
    await expect(mirror.syncStateOf('customers', 'x1')).rejects.toMatchObject({ code: 'validation' });
  });
});
