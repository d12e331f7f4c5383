/**
 * Vitest's global setup: says once, before the run, which selected browser engines are not
 * installed and how to install them, so that their skipped suites are never a surprise. Under
 * `CI=true` it says they will fail instead.
 */
import { installCommand, missingEngine, selectedEngines } from '../../scripts/engines/index.js';

export default function reportMissingEngines(): void {
  const missing = selectedEngines().flatMap((engine) => {
    const why = missingEngine(engine);
    return why ? [{ engine, why }] : [];
  });
  if (missing.length === 0) return;
  const required = process.env.CI === 'true';
  const lines = missing.map(({ engine, why }) => `  ${engine}: ${why}`);
  const install = missing.map(({ engine }) => installCommand(engine).replace('apt-get install ', '')).join(' ');
  process.stderr.write(
    `${required ? 'Browser engines missing (CI=true: their suites fail)' : 'Browser engines not installed: their suites are skipped'}\n${lines.join('\n')}\n` +
      `  all of them: apt-get install ${install} (Debian, Ubuntu; ENGINES=chromium,... narrows the suites, npm run test:node runs none)\n`,
  );
}
