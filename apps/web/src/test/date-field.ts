import { within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** The date field (components/ui/date-field.tsx) a label names: a group of year, month and day segments. */
export function dateField(label: string | RegExp, container: HTMLElement = document.body): HTMLElement {
  return within(container).getByRole('group', { name: label });
}

/** The ISO date a date field gives its form (the hidden input React Aria keeps under the field's name). */
export function dateValue(field: HTMLElement): string {
  return field.closest('.field')?.querySelector<HTMLInputElement>('input[type="hidden"]')?.value ?? '';
}

/** Types an ISO date into a date field as a person does: each segment in the UI language's order. */
export async function typeDate(user: UserEvent, field: HTMLElement, iso: string): Promise<void> {
  const [year, month, day] = iso.split('-');
  const parts: Record<string, string | undefined> = { year, month, day };
  for (const segment of within(field).getAllByRole('spinbutton')) {
    await user.click(segment);
    await user.keyboard(parts[segment.dataset.type ?? ''] ?? '');
  }
}
