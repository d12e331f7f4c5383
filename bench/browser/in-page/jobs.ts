/**
 * Page code: measurements started as jobs and polled (`startJob`, `pollJob`), so that no automation
 * client waits on one long script: a first sync of the medium tenant outlasts some clients' time
 * limits. Each bench page's script exports the pair made here over its own measurements.
 */

/** A job's state: running, its result, or what it threw. */
export type JobState = { state: 'running' } | { state: 'done'; value: unknown } | { state: 'failed'; message: string };

/** Starting and polling jobs of a page. */
export interface JobRunner<Name extends string> {
  /** Starts a measurement and returns its job number. */
  startJob(name: Name, arg: unknown): number;
  /** A job's state; a finished job is forgotten once read. */
  pollJob(id: number): JobState;
}

/** The job runner over `measurements`, by name. */
export function jobRunner<Name extends string>(measurements: Record<Name, (arg: never) => Promise<unknown>>): JobRunner<Name> {
  const jobs = new Map<number, JobState>();
  let lastJob = 0;
  return {
    startJob(name, arg) {
      const job = measurements[name] as ((arg: unknown) => Promise<unknown>) | undefined;
      if (!job) throw new Error(`no such bench job: ${String(name)}`);
      const id = ++lastJob;
      jobs.set(id, { state: 'running' });
      job(arg).then(
        (value) => jobs.set(id, { state: 'done', value: value ?? null }),
        (error: unknown) => jobs.set(id, { state: 'failed', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }),
      );
      return id;
    },
    pollJob(id) {
      const job = jobs.get(id);
      if (!job) return { state: 'failed', message: `no such job: ${id}` };
      if (job.state !== 'running') jobs.delete(id);
      return job;
    },
  };
}
