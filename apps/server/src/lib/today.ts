/** Today's calendar date in Sweden, where the due dates of the portal's invoices are reckoned. */
export function todayIn(now: Date, timeZone = 'Europe/Stockholm'): string {
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
  return format.format(now);
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();
