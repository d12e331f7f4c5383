/**
 * The README's Node job as written there, taken out of the README and run as a child process
 * against the simulator: it syncs into a data directory and prints what it holds; run again, it
 * goes on from that directory.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../../scripts/bundle-for-browser.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { readmeBlock } from './readme-code.js';

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe("the README's Node job", { timeout: 60_000 }, () => {
  let sim: Simulator;
  let dataDir: string;
  let script: string;

  beforeAll(async () => {
    sim = await createSimulator({ port: 0, size: 'tiny' });
    dataDir = await mkdtemp(join(tmpdir(), 'readme-node-job-'));
    const dir = repoPath('test-output/readme');
    await mkdir(dir, { recursive: true });
    script = join(dir, `node-job-${process.pid}.ts`);
    await writeFile(script, readmeBlock('## A Node job', 'ts'));
  });

  afterAll(async () => {
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(script, { force: true });
  });

  it('syncs from the simulator and prints the orders and customers it holds, then does it again from its data directory', async () => {
    const env = { POS_BASE_URL: sim.baseUrl, POS_TOKEN: sim.token, POS_DATA_DIR: dataDir };
    for (const round of ['first', 'restart']) {
      const { code, stdout, stderr } = await run(script, env);
      expect(stderr, `${round}: nothing on stderr`).toBe('');
      expect(code, round).toBe(0);
      const printed = /synced (\d+) collections: (\d+) orders, (\d+) customers/.exec(stdout);
      expect(printed, `${round}: ${stdout}`).not.toBeNull();
      expect(Number(printed![2])).toBe(sim.store.count('orders'));
      expect(Number(printed![3])).toBe(sim.store.count('customers'));
      expect(Number(printed![2])).toBeGreaterThan(0);
    }
  });

  it('says what it needs when the address or the token is missing', async () => {
    const { code, stderr } = await run(script, { POS_BASE_URL: '', POS_TOKEN: '', POS_DATA_DIR: dataDir });
    expect(code).not.toBe(0);
    expect(stderr).toContain('Set POS_BASE_URL and POS_TOKEN');
  });
});
