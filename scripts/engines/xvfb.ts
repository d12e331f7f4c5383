/**
 * A virtual X display for an engine that needs one (WebKitGTK's MiniBrowser has no headless mode):
 * `DISPLAY` when the caller has one, else one Xvfb per process, started on first use and stopped
 * when the process exits, also when a signal ends it (vitest ends its workers with SIGTERM, which
 * runs no `exit` handler: every test file left its Xvfb behind).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { requireProgram, xvfbProgram } from './programs.js';

let started: Promise<string> | undefined;
let xvfb: ChildProcess | undefined;

/** The display to open windows on (`:N`). */
export function display(): Promise<string> {
  if (process.env.DISPLAY) return Promise.resolve(process.env.DISPLAY);
  started ??= startXvfb();
  return started;
}

function startXvfb(): Promise<string> {
  const program = requireProgram(xvfbProgram());
  return new Promise((resolve, reject) => {
    // -displayfd: Xvfb picks a free display and writes its number to fd 3 once it accepts clients.
    const child = spawn(program, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    xvfb = child;
    stopOnSignals();
    const pipe = child.stdio[3] as Readable;
    let number = '';
    pipe.on('data', (chunk: Buffer) => {
      number += chunk.toString();
      if (!number.includes('\n')) return;
      // Served: the display no longer keeps this process alive; the exit hook below stops it.
      pipe.destroy();
      child.unref();
      resolve(`:${number.trim()}`);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb ended before it served a display (exit ${code})`)));
  });
}

process.once('exit', () => xvfb?.kill());

/**
 * Stops Xvfb when a signal ends this process, then lets the signal do what it would have done: a
 * process that handles it itself keeps doing so, one that does not ends (the signal is raised again
 * once this handler is gone).
 */
function stopOnSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      xvfb?.kill();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
