/**
 * The node-sync example as a person runs it: a child process mirroring a simulator over HTTP,
 * its summary checked against what the simulator holds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { createSimulator } from '../../src/simulator/index.js';
import { formatOverview } from '../../examples/node-sync/overview.js';

const SCRIPT = resolve(import.meta.dirname, '../../examples/node-sync/main.ts');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('node-sync example', { timeout: 60_000 }, () => {
  let sim: Awaited<ReturnType<typeof createSimulator>>;

  beforeAll(async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 5, activity: false });
  });

  afterAll(async () => {
    await sim?.close();
  });

  const dataDir = mkdtempSync(join(tmpdir(), 'node-sync-e2e-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('mirrors a service given by URL and token and prints a record count per collection that matches it', async () => {
    const { code, stdout, stderr } = await run(['--base-url', sim.baseUrl, '--once', '--data-dir', dataDir], { POS_TOKEN: sim.token });
    expect(stderr).toContain(`Mirroring ${sim.baseUrl}`);
    expect(code).toBe(0);
    for (const collection of COLLECTIONS) {
      const line = stdout.split('\n').find((l) => l.startsWith(`${collection} `));
      expect(line, collection).toBeDefined();
      expect(Number(line!.trim().split(/\s+/).pop()!.replace(/,/g, '')), collection).toBe(sim.store.list(collection).length);
    }
    expect(stdout).toMatch(/Pending pushes: 0 +Refused: 0 +Conflicts: 0 +Quarantined: 0/);
    expect(stdout + stderr).not.toContain(sim.token);
  });

  it('refuses a base URL without a token, naming the flag, with exit code 2', async () => {
    const { code, stderr } = await run(['--base-url', sim.baseUrl], { POS_TOKEN: '' });
    expect(code).toBe(2);
    expect(stderr).toContain('--base-url needs a token');
  });

  it('stops with exit code 1 and the reason when the token is refused', async () => {
    const { code, stderr, stdout } = await run(['--base-url', sim.baseUrl, '--once', '--data-dir', join(dataDir, 'refused')], { POS_TOKEN: 'not-the-token' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/the sync failed: AuthError/);
    expect(stdout + stderr).not.toContain('not-the-token');
  });

  it('keeps the mirror in its data directory: a second run resumes from it with a delta, and --fresh starts over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-sync-e2e-'));
    try {
      const first = await run(['--base-url', sim.baseUrl, '--once', '--data-dir', dir], { POS_TOKEN: sim.token });
      expect(first.code).toBe(0);
      expect(first.stderr).toContain(`Keeping the mirror in ${dir}`);
      sim.requests.clear();
      const second = await run(['--base-url', sim.baseUrl, '--once', '--data-dir', dir], { POS_TOKEN: sim.token });
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(`Resuming from ${dir}`);
      expect(sim.requests.recent().filter((r) => r.method === 'GET' && r.query['version_start'] === '0')).toEqual([]);
      const third = await run(['--base-url', sim.baseUrl, '--once', '--data-dir', dir, '--fresh'], { POS_TOKEN: sim.token });
      expect(third.stderr).toContain(`Keeping the mirror in ${dir}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the date of a last sale from an earlier day, and only the time of one from today', () => {
    const now = new Date(2026, 10, 25, 15, 0).getTime();
    const line = { salesToday: 0, takingsToday: '0', lastOrderTotal: '1' };
    const text = formatOverview(
      [
        { ...line, name: 'Shop · A', lastOrderAt: new Date(2026, 10, 25, 9, 30).getTime() },
        { ...line, name: 'Shop · B', lastOrderAt: new Date(2026, 10, 23, 18, 45).getTime() },
      ],
      now,
      'en-GB',
    );
    expect(text).toMatch(/Shop · A .*09:30/);
    expect(text).not.toMatch(/Shop · A .*Nov/);
    expect(text).toMatch(/Shop · B .*23 Nov, 18:45/);
  });
});

