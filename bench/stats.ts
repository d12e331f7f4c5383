/**
 * Small helpers the benchmarks share. Not a benchmark itself: `bench/run.ts` runs only files
 * named `*.bench.ts`.
 */

/**
 * The median of `xs`, as the benchmarks report it: the middle value once sorted, and for an even
 * count the upper of the two middle values (no averaging). `xs` is not modified. NaN when `xs` is
 * empty.
 */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
}

/**
 * A full garbage collection when node runs with `--expose-gc` (as `bench/run.ts` starts every
 * benchmark), otherwise nothing.
 */
export const gc: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** The smallest and largest of `xs` (NaN for both when `xs` is empty). */
export function range(xs: readonly number[]): { min: number; max: number } {
  if (xs.length === 0) return { min: Number.NaN, max: Number.NaN };
  return { min: Math.min(...xs), max: Math.max(...xs) };
}
