import type { Language, PendingInvoice, sendInvoicesResponseSchema } from '@portal/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { errorText } from '../../../lib/messages';
import { useSendInvoices } from '../api/send-invoices';
import { SendConfirmDialog } from './send-confirm-dialog';
import '../texts';

export type SendResults = z.infer<typeof sendInvoicesResponseSchema>['results'];

const DUE_DATE_REFUSALS: Partial<Record<string, string>> = {
  'invoices.due_date_passed': 'invoices:send.refused_passed',
  'invoices.due_date_too_soon': 'invoices:send.refused_too_soon',
};

/**
 * The confirmation and send of `/invoice/send` for invoices chosen elsewhere (the business invoices
 * of `/invoice/send-business`, issue #13): the same dialog with the invoices, totals, fees and payout,
 * the same send call with one idempotency key per dialog, the same refusals.
 */
export function SendPendingDialog({
  invoices,
  language,
  onSent,
  onHide,
}: {
  invoices: readonly PendingInvoice[];
  language: Language;
  onSent: (results: SendResults) => void;
  onHide: () => void;
}) {
  const { t } = useTranslation();
  const send = useSendInvoices();
  const key = useRef(newIdempotencyKey());
  const failure = send.error;
  const refusal = failure instanceof ApiError ? DUE_DATE_REFUSALS[failure.code] : undefined;
  const error = failure
    ? refusal && failure instanceof ApiError
      ? t(refusal, failure.details)
      : errorText(t, failure)
    : null;
  return (
    <SendConfirmDialog
      invoices={invoices}
      language={language}
      sending={send.isPending}
      error={error}
      onConfirm={() =>
        send.mutate(
          { invoiceIDs: invoices.map((invoice) => invoice.invoiceID), idempotencyKey: key.current },
          { onSuccess: (answer) => onSent(answer.results) },
        )
      }
      onHide={() => {
        if (!send.isPending) onHide();
      }}
    />
  );
}
