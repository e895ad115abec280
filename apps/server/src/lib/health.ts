import { type Db, lookupsOf } from '../db/client';
import type { DbGate } from './db-gate';

/**
 * What `GET /api/health` reports about the database, without waiting in line for it:
 * - `ok`: a probe (`select 1` on each pool of the database: the main one and, on PostgreSQL, that of
 *   lookups by key, which every signed-in request's session passes through) answered within
 *   `answerWithinMs`;
 * - `busy`: the probe did not answer in time, but the database is at work: a probe answered less than
 *   `staleMs` ago (or the check was made less than that ago and none has answered yet), or requests
 *   are at the database and none has been there for `stuckMs`;
 * - `unavailable`: the probe failed on either pool (a server with no room left for the lookups' first
 *   connection refuses every signed-in request, however well the main pool does), or the database has
 *   answered nothing for that long.
 * One probe at a time: a health check that comes while one is out shares it, so probes never pile up
 * in the database's queue however often the health is asked.
 */
export type DatabaseHealth = 'ok' | 'busy' | 'unavailable';

export interface HealthCheckOptions {
  answerWithinMs: number;
  staleMs: number;
  stuckMs: number;
}

export const HEALTH_CHECK_DEFAULTS: HealthCheckOptions = {
  answerWithinMs: 50,
  staleMs: 10_000,
  stuckMs: 60_000,
};

export function createHealthCheck(
  db: Db,
  gate: DbGate | undefined,
  options: HealthCheckOptions = HEALTH_CHECK_DEFAULTS,
  clock: () => number = Date.now,
): () => Promise<DatabaseHealth> {
  let probe: Promise<boolean> | null = null;
  let lastAnswerAt: number | null = null;
  const pools = [...new Set([db, lookupsOf(db)])];
  // A server just started has `staleMs` for its first answer: a pool's first connection can take
  // longer than `answerWithinMs` to open on a busy machine, and that is not a failure.
  const startedAt = clock();

  const startProbe = (): Promise<boolean> => {
    const p = Promise.all(pools.map((pool) => pool.execute('select 1'))).then(
      () => {
        lastAnswerAt = clock();
        return true;
      },
      () => false,
    );
    probe = p;
    p.finally(() => {
      if (probe === p) probe = null;
    });
    return p;
  };

  return async () => {
    const current = probe ?? startProbe();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), options.answerWithinMs);
    });
    const answer = await Promise.race([current, late]);
    clearTimeout(timer);
    if (answer === true) return 'ok';
    if (answer === false) return 'unavailable';
    const now = clock();
    if (now - (lastAnswerAt ?? startedAt) < options.staleMs) return 'busy';
    const since = gate?.oldestAtWorkSince() ?? null;
    if (since !== null && now - since < options.stuckMs) return 'busy';
    return 'unavailable';
  };
}
