import type { Language } from '@portal/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { markServerErrors } from '../../../components/ui/form-fields';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/messages';
import { duplicateNumberParams } from './invoice-form';

/**
 * The banner of a refused invoice save (register, edit, upload): the translated error; for a duplicate
 * number (spec §5) the existing invoice's amount, recipient and date, which the number field shows too.
 */
export function invoiceSaveFailure(
  t: TFunction,
  error: unknown,
  language: Language,
): { text: string; duplicate: ReturnType<typeof duplicateNumberParams> } {
  if (error instanceof ApiError && error.code === 'invoices.duplicate_number') {
    const duplicate = duplicateNumberParams(error.details, language);
    const text = duplicate
      ? t('errors:invoices.duplicate_number', duplicate)
      : t('invoices:form.errors.duplicate_plain');
    return { text, duplicate };
  }
  return { text: errorText(t, error), duplicate: null };
}

/**
 * The refused save of an invoice form (register, edit, upload): the banner's text and the duplicate
 * number's facts, `showServerError` that marks the fields the answer names (the first takes the focus)
 * and fills both, and `clear` for a new attempt.
 */
export function useInvoiceSaveFailure<V extends FieldValues>(
  setError: UseFormSetError<V>,
  fieldOf: (path: string) => FieldPath<V> | null,
  language: Language,
) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<ReturnType<typeof duplicateNumberParams>>(null);
  function showServerError(error: unknown) {
    markServerErrors(error, setError, { fieldOf, focusFirstIssue: true });
    const shown = invoiceSaveFailure(t, error, language);
    setDuplicate(shown.duplicate);
    setFailure(shown.text);
  }
  function clear() {
    setFailure(null);
    setDuplicate(null);
  }
  return { failure, setFailure, duplicate, showServerError, clear };
}
