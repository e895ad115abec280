import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP } from '@portal/domain/money-flow';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sentInvoices } from '../../../test/support/money';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoiceEvents, invoices } from '../../db/schema';
import { runDailyJob } from './money.service';

const t = useTestApp({ resetEach: true });

/** Events of one kind written by the run at `at`, per invoice. */
async function written(event: number, at: Date): Promise<string[]> {
  return (
    await t.db
      .select({ invoiceId: invoiceEvents.invoiceId })
      .from(invoiceEvents)
      .where(and(eq(invoiceEvents.event, event), eq(invoiceEvents.at, at)))
  ).map((e) => e.invoiceId);
}

describe('runDailyJob', () => {
  it('leaves an invoice whose steps fail untouched and counts only the steps that were written', async () => {
    const [failing, fine] = await sentInvoices(t, { n: 2, service: 'factoring', approve: true });
    if (!failing || !fine) throw new Error('two invoices');
    // Reminder 1 of one invoice is refused by the database, after its overdue step was taken in the
    // same savepoint: that invoice's overdue step must roll back with it, and not be counted.
    await t.db.execute(
      sql.raw(`create function refuse_reminder() returns trigger language plpgsql as $$
        begin raise exception 'refused for the test'; end $$`),
    );
    await t.db.execute(
      sql.raw(`create trigger refuse_reminder before insert on invoice_events for each row
        when (new.event = 8 and new.invoice_id = '${failing.id}') execute function refuse_reminder()`),
    );
    try {
      const date = addDays(failing.dueDate, 10);
      const now = new Date(`${date}T05:00:00Z`);
      const result = await runDailyJob(t.db, { date, now, referenceRateBp: DEFAULT_REFERENCE_RATE_BP });

      expect(result.failed).toEqual([failing.id]);
      const [untouched] = await t.db.select().from(invoices).where(eq(invoices.id, failing.id));
      expect(untouched?.dunningStep).toBe(0);
      expect(
        await t.db
          .select()
          .from(invoiceEvents)
          .where(and(eq(invoiceEvents.invoiceId, failing.id), eq(invoiceEvents.at, now))),
      ).toEqual([]);

      const overdue = await written(25, now);
      const reminder1 = await written(8, now);
      expect(overdue).toContain(fine.id);
      expect(reminder1).toContain(fine.id);
      // Every counter is the number of events of its step that the run wrote.
      expect(result.overdue).toBe(overdue.length);
      expect(result.reminder1).toBe(reminder1.length);
      expect(result.reminder2).toBe((await written(9, now)).length);
      expect(result.collection).toBe((await written(10, now)).length);
      expect(result.interestItems).toBe((await written(14, now)).length);
      expect(result.chargedBack).toBe((await written(22, now)).length);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_reminder on invoice_events'));
      await t.db.execute(sql.raw('drop function refuse_reminder()'));
    }
  });
});
