import { MONEY_DATE_WINDOW } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { ApiError } from '../../lib/errors';
import { todayIn } from '../../lib/today';

/**
 * Refuses a date of money movement an operator entered (a payout date, the day of a daily job) that is
 * not near `today`: 400 `money.date_out_of_range` on `field`, with the window in the details
 * (MONEY_DATE_WINDOW, docs/MONEY.md "Money bounds"). Dates are `YYYY-MM-DD`, compared as text.
 */
function assertNearToday(date: string, today: string, field: string): void {
  const from = addDays(today, -MONEY_DATE_WINDOW.daysBack);
  const to = addDays(today, MONEY_DATE_WINDOW.daysAhead);
  if (date < from || date > to)
    throw new ApiError('money.date_out_of_range', {
      issues: [{ path: field, code: 'money.date_out_of_range' }],
      details: { from, to },
    });
}

/**
 * The day an operator's run of money is for: the one given, checked near today (`assertNearToday`), or
 * today (Europe/Stockholm) when none is given.
 */
export function operatorMoneyDay(now: Date, given: string | undefined, field: string): string {
  const today = todayIn(now);
  const day = given ?? today;
  assertNearToday(day, today, field);
  return day;
}
