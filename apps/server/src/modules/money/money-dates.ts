import { MONEY_DATE_WINDOW } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { ApiError } from '../../lib/errors';

/**
 * Refuses a date of money movement an operator entered (a payout date, the day of a daily job) that is
 * not near `today`: 400 `money.date_out_of_range` on `field`, with the window in the details
 * (MONEY_DATE_WINDOW, docs/MONEY.md "Money bounds"). Dates are `YYYY-MM-DD`, compared as text.
 */
export function assertNearToday(date: string, today: string, field: string): void {
  const from = addDays(today, -MONEY_DATE_WINDOW.daysBack);
  const to = addDays(today, MONEY_DATE_WINDOW.daysAhead);
  if (date < from || date > to)
    throw new ApiError('money.date_out_of_range', {
      issues: [{ path: field, code: 'money.date_out_of_range' }],
      details: { from, to },
    });
}
