import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArgs } from '../../src/simulator/cli-args.js';

function run(args: string[]): { exit: Promise<number | null>; output: () => string; errors: () => string; child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { exit, output: () => out, errors: () => err, child };
}

describe('simulator command line', () => {
  it('parses every flag into options', () => {
    const command = parseCliArgs(['--port', '0', '--size', 'orders=500,products=20', '--token', 'T', '--seed', '4', '--base-path', '/x', '--error-rate', '0.1', '--rate-limit', '20', '--latency', '50', '--drop-rate', '0.05', '--truncate-rate', '0.05', '--extra-429-rate', '0.1', '--id-start-inclusive', '--ids-as-strings', '--post-response', 'ids', '--legacy-paths-only', '--orders-over-cap', 'truncate', '--activity', '2']);
    expect(command).toEqual({
      help: false,
      options: {
        port: 0,
        size: { orders: 500, products: 20 },
        seed: 4,
        token: 'T',
        basePath: '/x',
        faults: { errorRate: 0.1, rateLimitPerSecond: 20, latencyMs: 50, dropRate: 0.05, truncateRate: 0.05, extra429Rate: 0.1 },
        idStartInclusive: true,
        idsAsStrings: true,
        postResponse: 'ids',
        legacyPathsOnly: true,
        ordersOverCap: 'truncate',
        activity: { ordersPerSecond: 2 },
      },
    });
    expect(parseCliArgs(['--help'])).toEqual({ help: true });
  });

  it('refuses bad flags with a message naming them', () => {
    for (const [args, pattern] of [[['--bogus'], /bogus/], [['--error-rate', '2'], /error-rate/], [['--port', 'x'], /port/], [['--size', 'huge'], /size/], [['--post-response', 'xml'], /post-response/], [['--activity', '0'], /activity/]] as const) {
      expect(() => parseCliArgs([...args]), args.join(' ')).toThrow(CliUsageError);
      expect(() => parseCliArgs([...args])).toThrow(pattern);
    }
  });

  it('prints the base URL and token, serves, and stops cleanly on SIGTERM', async () => {
    const cli = run(['--port', '0', '--size', 'tiny', '--token', 'cli-token', '--seed', '2']);
    try {
      for (let i = 0; i < 300 && !cli.output().includes('token:'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const url = /base URL: (\S+)/.exec(cli.output())?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(cli.output()).toContain('token:    cli-token');
      const response = await fetch(`${url}/shops`, { headers: { authorization: 'A|cli-token' } });
      expect(response.status).toBe(200);
      cli.child.kill('SIGTERM');
      expect(await cli.exit).toBe(0);
      expect(cli.output()).toContain('simulator stopped');
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('exits 2 with a message for a bad flag or a bad option value', async () => {
    const flag = run(['--nope']);
    expect(await flag.exit).toBe(2);
    expect(flag.errors()).toContain("Unknown option '--nope'");
    const size = run(['--size', 'shops=0', '--port', '0']);
    expect(await size.exit).toBe(2);
    expect(size.errors()).toContain('shops');
  });
});
