import type { Language } from '@portal/contracts';
import type { TFunction } from 'i18next';
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
