/**
 * Page code: the smallest step of `performance.now()` in this page. Engines coarsen the clock of a
 * page that is not cross-origin isolated (Chromium to 0.1 ms, Firefox and WebKit to 1 ms here), and
 * no figure timed in the page is finer than that.
 */
export async function timerResolution(): Promise<number> {
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    let now = start;
    while (now === start) now = performance.now();
    smallest = Math.min(smallest, now - start);
  }
  return smallest;
}
