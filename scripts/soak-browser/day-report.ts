/**
 * The lines a day at the register (`--day`) adds to the report: each tab's series (first, after
 * the first sync, least, most, last), the heap's growth and slope, and the verdict against the aims.
 */
import type { DayResult } from './run-browser-soak.js';
import type { SeriesStats } from './day-series.js';

/** The day's lines, ready to print. */
export function formatDay(day: DayResult): string[] {
  const lines = [`day at the register: ${day.samples} samples (every 30 s, and before and after the first sync and after settling); heap: ${day.heapMeasure}`];
  for (const t of day.summary.tabs) {
    const heap = t.heap ? `${span(t.heap, mb)}; growth ${signed(t.heapGrowth!)}, line ${signed(t.heapSlopePer10Min!)} per 10 min` : 'n/a';
    const bpr = t.bytesPerRecord ? `, ${Math.round(t.bytesPerRecord.afterFirstSync)} → ${Math.round(t.bytesPerRecord.last)} B/record` : '';
    lines.push(
      `  tab ${t.tab} (${t.samples} samples over ${t.minutes.toFixed(1)} min from the first sync): heap ${heap}`,
      `    database ${t.usage ? span(t.usage, mb) : 'n/a'}; records ${span(t.records, String)}${bpr}`,
      `    outbox ${span(t.outbox, String)}; rejected ${span(t.rejected, String)}; conflicts ${span(t.conflicts, String)}; quarantined ${span(t.quarantined, String)}`,
    );
  }
  const pages = day.summary.pages;
  if (pages) {
    lines.push(
      `  page processes: ${pages.followed} ran from the first sync to the end (${pages.processes.min === pages.processes.max ? pages.processes.min : `${pages.processes.min}-${pages.processes.max}`} at a reading), every tab together, ${pages.samples} readings over ${pages.minutes.toFixed(1)} min: memory of those ${span(pages.bytes, mb)}; growth ${signed(pages.growth)}, line ${signed(pages.slopePer10Min)} per 10 min`,
    );
  }
  for (const failure of day.failures) lines.push(`  a reading failed: ${failure}`);
  for (const aim of day.summary.aims) lines.push(`  ${aim.met === null ? 'n/a ' : aim.met ? 'met ' : 'MISSED'} ${aim.aim}, ${aim.tab === null ? 'page processes' : `tab ${aim.tab}`}: ${aim.detail}`);
  lines.push(day.summary.missed === 0 ? 'day: every aim met (or n/a in this engine)' : `day: ${day.summary.missed} aim(s) missed`, `series: ${day.file}`);
  return lines;
}

function span(s: SeriesStats, show: (n: number) => string): string {
  if (s.first === s.last && s.min === s.max && s.first === s.min) return `${show(s.first)} throughout`;
  return `first ${show(s.first)}, after the first sync ${show(s.afterFirstSync)}, min ${show(s.min)}, max ${show(s.max)}, last ${show(s.last)}`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function signed(bytes: number): string {
  return `${bytes >= 0 ? '+' : '-'}${mb(Math.abs(bytes))}`;
}
