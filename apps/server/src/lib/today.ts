/** Today's calendar date in Sweden, where the due dates of the portal's invoices are reckoned. */
export function todayIn(now: Date, timeZone = 'Europe/Stockholm'): string {
  // Most calls of a busy server fall in the same second as the one before: the date of that second
  // is kept (a time zone's offset is whole seconds, so a date never changes inside a second).
  const second = Math.floor(now.getTime() / 1000);
  let day = LAST_DAY.get(timeZone);
  if (day?.second === second) return day.date;
  let format = DAY_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    DAY_FORMATS.set(timeZone, format);
  }
  day = { second, date: format.format(now) };
  LAST_DAY.set(timeZone, day);
  return day.date;
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();
/** The date of the second last asked, per time zone. */
const LAST_DAY = new Map<string, { second: number; date: string }>();
