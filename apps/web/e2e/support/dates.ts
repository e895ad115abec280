import type { Locator, Page } from '@playwright/test';

/**
 * Calendar dates as the portal sees them. The browser runs in Europe/Stockholm (playwright.config.ts),
 * the test runner in whatever zone the machine has; near midnight UTC the two are on different days,
 * so a spec must never take "today" from the runner's own clock.
 */

/** Today in Stockholm, `YYYY-MM-DD`. */
export function swedishToday(): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());
}

function parts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split('-').map(Number);
  return [y as number, m as number, d as number];
}

function format(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `iso` moved by `days` calendar days. */
export function addDaysIso(iso: string, days: number): string {
  const [y, m, d] = parts(iso);
  return format(new Date(Date.UTC(y, m - 1, d + days)));
}

/** The first day of the month `months` months from the month of `iso`. */
export function monthStartIso(iso: string, months = 0): string {
  const [y, m] = parts(iso);
  return format(new Date(Date.UTC(y, m - 1 + months, 1)));
}

/** The last day of the month of `iso`. */
export function monthEndIso(iso: string): string {
  const [y, m] = parts(iso);
  return format(new Date(Date.UTC(y, m, 0)));
}

/** The date field a label names (components/ui/date-field.tsx): a group of year, month and day segments. */
export function dateField(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('group', { name: label, exact: true });
}

/** The ISO date a date field gives its form: the hidden input React Aria keeps under the field's name. */
export function dateFieldValue(field: Locator): Locator {
  return field.locator('xpath=..').locator('input[type="hidden"]');
}

/**
 * Types a date into a date field as a person does: clicks the first segment and types the digits of
 * each segment in the order the field shows them (the UI language's), the focus moving on by itself.
 */
export async function typeDate(field: Locator, iso: string): Promise<void> {
  const [year, month, day] = iso.split('-');
  const digits: Record<string, string | undefined> = { year, month, day };
  const segments = field.getByRole('spinbutton');
  // evaluateAll does not wait: the field may be in a chunk still loading (a lazy modal).
  await segments.first().waitFor();
  const order = await segments.evaluateAll((all) => all.map((s) => (s as HTMLElement).dataset.type ?? ''));
  // Segment by segment, each clicked first and checked after: a modal that is still opening may move
  // the focus while the first keys are typed, and a key typed then is lost.
  for (const [i, type] of order.entries()) {
    const segment = segments.nth(i);
    for (let attempt = 0; attempt < 3; attempt++) {
      await segment.click();
      await field.page().keyboard.type(digits[type] ?? '');
      if ((await segment.getAttribute('aria-valuenow')) !== null) break;
    }
  }
}
