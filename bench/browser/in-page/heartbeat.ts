/**
 * Page code: how long the page's main thread was kept from everything else while a piece of work
 * ran, measured the same way in every engine. A timer heartbeat (a chain of `setTimeout(0)`, which
 * browsers clamp to about 4 ms once nested) and an animation-frame heartbeat note the largest gap
 * between two of their ticks: a task that holds the thread for N ms delays the next tick by about
 * N ms. Where the engine has them, the Long Tasks API (`longtask`, tasks over 50 ms) and Long
 * Animation Frames (`long-animation-frame`) report their longest entry too.
 */

/** What the heartbeats saw while they ran. */
export interface HeartbeatReport {
  /** Largest gap between two timer ticks (ms). */
  timerMaxGapMs: number;
  timerTicks: number;
  /** Largest gap between two animation frames (ms); null when no frame ran (a page not painted). */
  frameMaxGapMs: number | null;
  frames: number;
  /** Longest `longtask` entry (ms), 0 when none; null when the engine has no Long Tasks API. */
  longTaskMaxMs: number | null;
  longTasks: number | null;
  /** Longest `long-animation-frame` entry (ms), 0 when none; null when the engine has none. */
  longFrameMaxMs: number | null;
  /** `document.visibilityState` at the start: a hidden page's timers are throttled. */
  visibility: string;
}

/** A running heartbeat; `stop()` ends it and reports. */
export interface Heartbeat {
  stop(): HeartbeatReport;
}

/** Starts the heartbeats. */
export function startHeartbeat(): Heartbeat {
  const started = performance.now();
  let running = true;
  let timerLast = started;
  let timerMax = 0;
  let timerTicks = 0;
  const tick = () => {
    const now = performance.now();
    timerMax = Math.max(timerMax, now - timerLast);
    timerLast = now;
    timerTicks++;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);

  let frameLast: number | undefined;
  let frameMax = 0;
  let frames = 0;
  const frame = () => {
    const now = performance.now();
    if (frameLast !== undefined) frameMax = Math.max(frameMax, now - frameLast);
    frameLast = now;
    frames++;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  const longTasks = observe('longtask');
  const longFrames = observe('long-animation-frame');
  const visibility = document.visibilityState;

  return {
    stop() {
      running = false;
      const now = performance.now();
      // The time since the last tick counts too: a task still running at the end held the thread.
      timerMax = Math.max(timerMax, now - timerLast);
      return {
        timerMaxGapMs: timerMax,
        timerTicks,
        frameMaxGapMs: frames > 1 ? frameMax : null,
        frames,
        longTaskMaxMs: longTasks?.stop().max ?? null,
        longTasks: longTasks?.count() ?? null,
        longFrameMaxMs: longFrames?.stop().max ?? null,
        visibility,
      };
    },
  };
}

/** Observes performance entries of `type` when the engine supports it, keeping the longest. */
function observe(type: string): { stop(): { max: number }; count(): number } | undefined {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes(type)) return undefined;
  let max = 0;
  let count = 0;
  const take = (entries: PerformanceEntryList) => {
    for (const entry of entries) {
      max = Math.max(max, entry.duration);
      count++;
    }
  };
  const observer = new PerformanceObserver((list) => take(list.getEntries()));
  observer.observe({ type, buffered: false });
  return {
    stop() {
      // Entries the engine has queued but not yet delivered belong to the run too.
      take(observer.takeRecords());
      observer.disconnect();
      return { max };
    },
    count: () => count,
  };
}
