/**
 * The node-sync example as a person runs it: a child process mirroring a simulator over HTTP,
 * its summary checked against what the simulator holds.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { createSimulator } from '../../src/simulator/index.js';

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

  it('mirrors a service given by URL and token and prints a record count per collection that matches it', async () => {
    const { code, stdout, stderr } = await run(['--base-url', sim.baseUrl, '--once'], { POS_TOKEN: sim.token });
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
    const { code, stderr, stdout } = await run(['--base-url', sim.baseUrl, '--once'], { POS_TOKEN: 'not-the-token' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/the sync failed: AuthError/);
    expect(stdout + stderr).not.toContain('not-the-token');
  });
});
