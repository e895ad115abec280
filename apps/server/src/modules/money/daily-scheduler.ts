import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { todayIn } from '../../lib/today';
import { type DailyPlanStep, runDailyJob } from './daily-job';

/** The hour (Europe/Stockholm) the daily job runs every day. */
export const DAILY_JOB_HOUR = 6;

/** The hour of a time in Stockholm: one formatter for every call (building one costs far more than using it). */
const STOCKHOLM_HOUR = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Stockholm',
  hour: '2-digit',
  hour12: false,
});

/** Milliseconds from `now` to the next `hour`:00 in Europe/Stockholm (DST-safe: found by probing). */
export function msUntilNextRun(now: Date, hour = DAILY_JOB_HOUR): number {
  const hourIn = (d: Date) => Number(STOCKHOLM_HOUR.format(d));
  // Walk forward minute by minute-hour: first whole hour after now whose Stockholm hour is `hour`.
  const start = new Date(now);
  start.setUTCMinutes(0, 0, 0);
  for (let h = 1; h <= 48; h++) {
    const at = new Date(start.getTime() + h * 3_600_000);
    if (hourIn(at) === hour) return at.getTime() - now.getTime();
  }
  return 24 * 3_600_000;
}

export interface DailyScheduler {
  stop(): Promise<void>;
}

/**
 * Runs the daily job now and then every day at 06:00 Europe/Stockholm, for as long as the server runs.
 * Every server behind the load balancer may run it: the job's advisory lock lets one through and the
 * others find it `alreadyRunning`; a run of the same day again writes nothing. `stop` waits for a run
 * in progress, so the database is not closed under it.
 */
export function startDailyScheduler(
  db: Db,
  logger: Logger,
  opts: {
    referenceRateBp: number;
    now?: () => Date;
    /** The installment plans' step of the job (`DailyJobOptions.plans`). */
    plans?: DailyPlanStep;
    /** Work after each run's job: the embedded server registers queued payments in Fortnox (issue #13). */
    afterRun?: () => Promise<unknown>;
  },
): DailyScheduler {
  const now = opts.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = (async () => {
      const at = now();
      try {
        const result = await runDailyJob(db, {
          date: todayIn(at),
          now: at,
          referenceRateBp: opts.referenceRateBp,
          ...(opts.plans ? { plans: opts.plans } : {}),
        });
        logger.info({ dailyJob: result }, 'daily job done');
        if (opts.afterRun) logger.info({ afterRun: await opts.afterRun() }, 'daily job: after-run work done');
      } catch (error) {
        logger.error({ err: error }, 'daily job failed; it runs again at the next start or day');
      }
    })();
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void run().then(schedule);
    }, msUntilNextRun(now()));
    timer.unref();
  };
  void run().then(schedule);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
