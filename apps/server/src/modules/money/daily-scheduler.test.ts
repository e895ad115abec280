import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/use-test-app';
import { DAILY_JOB_HOUR, msUntilNextRun, startDailyScheduler } from './money.service';

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);

describe('msUntilNextRun: the next 06:00 in Europe/Stockholm', () => {
  it('runs at 06:00', () => {
    expect(DAILY_JOB_HOUR).toBe(6);
  });

  it('in winter (CET, UTC+1) 06:00 is 05:00 UTC', () => {
    expect(msUntilNextRun(at('2026-01-15T04:00:00Z'))).toBe(1 * HOUR);
    expect(msUntilNextRun(at('2026-01-15T04:59:30Z'))).toBe(30_000);
    expect(msUntilNextRun(at('2026-01-14T23:00:00Z'))).toBe(6 * HOUR);
  });

  it('in summer (CEST, UTC+2) 06:00 is 04:00 UTC', () => {
    expect(msUntilNextRun(at('2026-07-01T03:00:00Z'))).toBe(1 * HOUR);
    expect(msUntilNextRun(at('2026-07-01T03:15:45.500Z'))).toBe(44 * 60_000 + 14_500);
  });

  it('at or just after 06:00 the next run is the next day', () => {
    expect(msUntilNextRun(at('2026-01-15T05:00:00Z'))).toBe(24 * HOUR);
    expect(msUntilNextRun(at('2026-01-15T05:00:00.001Z'))).toBe(24 * HOUR - 1);
    expect(msUntilNextRun(at('2026-01-15T05:30:00Z'))).toBe(23.5 * HOUR);
    expect(msUntilNextRun(at('2026-07-01T04:00:00Z'))).toBe(24 * HOUR);
  });

  it('over the spring change (29 March 2026, 02:00 → 03:00) the night is an hour short', () => {
    // 06:30 CET on Saturday → 06:00 CEST on Sunday = 04:00 UTC: 22.5 hours.
    expect(msUntilNextRun(at('2026-03-28T05:30:00Z'))).toBe(22.5 * HOUR);
    // Just after the change, 03:30 CEST Sunday → 06:00 CEST: 2.5 hours.
    expect(msUntilNextRun(at('2026-03-29T01:30:00Z'))).toBe(2.5 * HOUR);
    // The day after runs 24 hours later again.
    expect(msUntilNextRun(at('2026-03-29T04:00:00Z'))).toBe(24 * HOUR);
  });

  it('over the autumn change (25 October 2026, 03:00 → 02:00) the night is an hour long', () => {
    // 06:30 CEST on Saturday → 06:00 CET on Sunday = 05:00 UTC: 24.5 hours.
    expect(msUntilNextRun(at('2026-10-24T04:30:00Z'))).toBe(24.5 * HOUR);
    // 06:00 CEST Saturday → 06:00 CET Sunday: 25 hours.
    expect(msUntilNextRun(at('2026-10-24T04:00:00Z'))).toBe(25 * HOUR);
    // In the repeated hour (02:30 CET, the second time) → 06:00 CET.
    expect(msUntilNextRun(at('2026-10-25T01:30:00Z'))).toBe(3.5 * HOUR);
  });

  it('lands on 06:00 Stockholm for every hour of a whole year', () => {
    const stockholm = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Stockholm',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    });
    const start = at('2026-01-01T00:17:00Z').getTime();
    for (let h = 0; h < 366 * 24; h++) {
      const now = new Date(start + h * HOUR);
      const wait = msUntilNextRun(now);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(25 * HOUR);
      expect(stockholm.format(new Date(now.getTime() + wait))).toBe('06:00:00');
    }
  });
});

describe('startDailyScheduler', () => {
  const t = useTestApp();

  function recordingLogger() {
    const infos: { dailyJob: { date: string; alreadyRunning: boolean } }[] = [];
    const errors: unknown[] = [];
    const logger = {
      info: (obj: { dailyJob: { date: string; alreadyRunning: boolean } }) => infos.push(obj),
      error: (obj: unknown) => errors.push(obj),
    } as unknown as Logger;
    return { logger, infos, errors };
  }

  it('runs the job at start for the Stockholm day, and stop waits for it', async () => {
    const { logger, infos, errors } = recordingLogger();
    // 23:30 UTC on 1 April is already 2 April in Stockholm.
    const scheduler = startDailyScheduler(t.db, logger, {
      referenceRateBp: 200,
      now: () => at('2026-04-01T23:30:00Z'),
    });
    await scheduler.stop();
    expect(errors).toEqual([]);
    expect(infos).toHaveLength(1);
    expect(infos[0]?.dailyJob).toMatchObject({ date: '2026-04-02', alreadyRunning: false });
  });

  it('runs again when 06:00 comes, and the second run of the day writes nothing new', async () => {
    const { logger, infos, errors } = recordingLogger();
    // 50 ms before 06:00 Stockholm: the timer fires almost at once.
    const sixAm = at('2026-04-02T04:00:00Z').getTime();
    let calls = 0;
    const scheduler = startDailyScheduler(t.db, logger, {
      referenceRateBp: 200,
      now: () => new Date(calls++ < 2 ? sixAm - 50 : sixAm + 1),
    });
    const deadline = Date.now() + 20_000;
    while (infos.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await scheduler.stop();
    expect(errors).toEqual([]);
    expect(infos.length).toBeGreaterThanOrEqual(2);
    const [first, second] = infos.map((i) => i.dailyJob as unknown as Record<string, number | string>);
    expect(first?.date).toBe('2026-04-02');
    expect(second?.date).toBe('2026-04-02');
    for (const step of ['distributed', 'overdue', 'reminder1', 'reminder2', 'collection', 'interestItems'])
      expect(second?.[step]).toBe(0);
  });

  it('after stop no further run is scheduled', async () => {
    const { logger, infos } = recordingLogger();
    const sixAm = at('2026-04-02T04:00:00Z').getTime();
    const scheduler = startDailyScheduler(t.db, logger, {
      referenceRateBp: 200,
      now: () => new Date(sixAm - 30),
    });
    await scheduler.stop();
    const runs = infos.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(infos.length).toBe(runs);
  });
});
