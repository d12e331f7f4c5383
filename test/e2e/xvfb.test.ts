/**
 * The virtual display of the browser layer (`scripts/engines/xvfb.ts`): started once per process for
 * an engine that needs one, and stopped with the process, also when the process is ended by a signal
 * (vitest ends its workers with SIGTERM; an Xvfb left behind by each test file piles up).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendants } from '../../scripts/engines/processes.js';
import { xvfbProgram } from '../../scripts/engines/programs.js';
import { ENGINES_REQUIRED } from '../engines/describe-engines.js';
import { waitUntil } from './dom.js';

const XVFB = resolve(import.meta.dirname, '../../scripts/engines/xvfb.ts');

describe.skipIf(!ENGINES_REQUIRED && xvfbProgram().path === undefined)('the virtual display', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`is stopped with its process when the process is ended by ${signal}`, async () => {
      const env = { ...process.env };
      delete env.DISPLAY;
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(XVFB)}).then((m) => m.display()).then((d) => { console.log(d); setInterval(() => undefined, 1000); })`], { env, stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise((done) => child.once('exit', done));
      let xvfb: number | undefined;
      try {
        const display = await new Promise<string>((done, fail) => {
          child.stdout.once('data', (d: Buffer) => done(d.toString().trim()));
          child.once('exit', (code) => fail(new Error(`the process ended before it had a display (exit ${code})`)));
        });
        expect(display).toMatch(/^:\d+$/);
        // Started by its path on PATH (`/usr/bin/Xvfb`) or by name.
        [xvfb] = descendants(child.pid!, /^(?:\S*\/)?Xvfb /);
        expect(xvfb, 'the Xvfb it started').toBeDefined();
        child.kill(signal);
        await exited;
        await waitUntil('the Xvfb gone', async () => existsSync(`/proc/${xvfb}`), (running) => !running);
      } finally {
        child.kill('SIGKILL');
        // Never leave one behind, whatever the outcome.
        if (xvfb !== undefined && existsSync(`/proc/${xvfb}`)) process.kill(xvfb);
      }
    });
  }
});
