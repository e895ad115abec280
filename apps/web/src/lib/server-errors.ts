import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

export interface ServerErrorFields<T extends FieldValues> {
  /** The form field an issue's path names (`recipientID` → `recipient`), or null when none does. */
  fieldOf: (path: string) => FieldPath<T> | null;
  /** Error codes that are about one field (a duplicate number): marked on it, and it takes the focus. */
  codeFields?: Readonly<Record<string, FieldPath<T>>>;
  /** The first field an issue marks takes the focus (the long invoice forms). */
  focusFirstIssue?: boolean;
}

/**
 * Shows a refused save on the form's fields (spec §8: the field says what is wrong, in the user's
 * language): the answer's error code on the field it is about, and each validation issue's code on the
 * field its path names. What names no field is left to the banner above the form, which shows
 * `errorText` of the same error. Anything but an API error marks nothing.
 */
export function markServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  { fieldOf, codeFields = {}, focusFirstIssue = false }: ServerErrorFields<T>,
): void {
  if (!(error instanceof ApiError)) return;
  const codeField = codeFields[error.code];
  if (codeField) setError(codeField, { type: 'server', message: error.code }, { shouldFocus: true });
  let focus = focusFirstIssue;
  for (const issue of error.issues) {
    const field = fieldOf(issue.path);
    if (field === null) continue;
    setError(field, { type: 'server', message: issue.code }, { shouldFocus: focus });
    focus = false;
  }
}
