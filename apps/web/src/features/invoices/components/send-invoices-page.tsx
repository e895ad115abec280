import { invoiceStatus, type sendInvoicesResponseSchema } from '@portal/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { CheckCell, SelectAllBox } from '../../../components/ui/check-cells';
import { DataTable } from '../../../components/ui/list-results';
import { ErrorNotice, LoadFailure, PageSpinner } from '../../../components/ui/load-states';
import { SendResults } from '../../../components/ui/send-results';
import { TableHead } from '../../../components/ui/sortable-header';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { errorText, translateCode } from '../../../lib/messages';
import { totalsByCurrency } from '../../../lib/money';
import { usePendingInvoices } from '../api/list-pending-invoices';
import { useSendInvoices } from '../api/send-invoices';
import { SERVICE_KEYS, stateKey } from '../utils/labels';
import { CurrencyTotals } from './currency-totals';
import { FeesPreview } from './fees-preview';
import { InvoiceStateBadge } from './invoice-state-badge';
import { SendConfirmDialog, SendDueAndAmountCells } from './send-confirm-dialog';
import '../texts';

type SendResult = z.infer<typeof sendInvoicesResponseSchema>['results'][number];

/**
 * The due-date refusals of a send, with the invoice numbers (`details`). Their texts live here, with
 * the send page, rather than under `errors`, which the login page loads (its size budget): `errors`
 * has only a short line for each code.
 */
const DUE_DATE_REFUSALS: Partial<Record<string, string>> = {
  'invoices.due_date_passed': 'invoices:send.refused_passed',
  'invoices.due_date_too_soon': 'invoices:send.refused_too_soon',
};

/**
 * `/invoice/send` (spec §2 pending invoices): the registered invoices in a table with checkboxes, the
 * count and total of the selection per currency, and Send, which needs at least one invoice (spec §5),
 * asks for confirmation in a dialog with the invoices, totals, fees and payout (issue #11), and reports
 * per invoice: its new state and OCR reference, or why it was not sent. An invoice whose due date has
 * passed or is too near (`sendCode`) is flagged in the list and in the dialog.
 */
export function SendInvoicesPage() {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const pending = usePendingInvoices();
  const send = useSendInvoices();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<SendResult[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  // One key per selection: a double click or a retry of the same send is answered once; a changed
  // selection is another request and gets a new key.
  const sendKey = useRef(newIdempotencyKey());

  const items = pending.data?.items ?? [];
  const chosen = items.filter((invoice) => selected.has(invoice.invoiceID));
  const totals = totalsByCurrency(chosen);

  function choose(next: ReadonlySet<string>) {
    sendKey.current = newIdempotencyKey();
    setSelected(next);
    if (next.size > 0) setError(null);
  }

  function toggle(id: string, checked: boolean) {
    const next = new Set(selected);
    if (checked) next.add(id);
    else next.delete(id);
    choose(next);
  }

  /** Send opens the confirmation; nothing goes to the server before it is confirmed. */
  function askToSend() {
    setResults(null);
    if (chosen.length === 0) {
      setError(translateCode(t, 'validation.select_at_least_one'));
      return;
    }
    setError(null);
    setSendError(null);
    setConfirming(true);
  }

  function closeConfirm() {
    if (send.isPending) return;
    setConfirming(false);
    setSendError(null);
  }

  function sendChosen() {
    setSendError(null);
    send.mutate(
      { invoiceIDs: chosen.map((invoice) => invoice.invoiceID), idempotencyKey: sendKey.current },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setResults(answer.results);
          choose(new Set());
        },
        onError: (failure) => {
          // The due-date refusal names the invoices (details); the list is fetched again so that its
          // flags follow the server's today.
          const refusal = failure instanceof ApiError ? DUE_DATE_REFUSALS[failure.code] : undefined;
          setSendError(
            refusal && failure instanceof ApiError ? t(refusal, failure.details) : errorText(t, failure),
          );
          void pending.refetch();
        },
      },
    );
  }

  return (
    <div className="invoice-page stack">
      <h1 className="page__title">{t('invoices:send.title')}</h1>
      <p className="page__lead">{t('invoices:send.lead')}</p>

      <SendResults
        title={t('invoices:send.results_title')}
        results={results}
        numberOf={(result) =>
          result.invoiceNumber
            ? t('invoices:send.result_invoice', { number: result.invoiceNumber })
            : t('invoices:send.result_unknown')
        }
        sent={(result) =>
          t('invoices:send.result_sent', { state: t(stateKey(result.state ?? 0)), ocr: result.ocr ?? '' })
        }
        failed={(result) =>
          t('invoices:send.result_failed', { reason: translateCode(t, result.code ?? 'server.internal') })
        }
        openLabel={t('invoices:send.open_invoice')}
      />

      {pending.isPending && <PageSpinner />}
      {pending.isError && <LoadFailure error={pending.error} onRetry={() => void pending.refetch()} />}
      {pending.isSuccess && items.length === 0 && <p className="empty-state">{t('invoices:send.empty')}</p>}
      {items.length > 0 && (
        <>
          <div className="button-row send-page__select">
            <Button
              variant="secondary"
              label={t('invoices:send.select_all')}
              onClick={() => choose(new Set(items.map((invoice) => invoice.invoiceID)))}
            />
            <Button
              variant="secondary"
              label={t('invoices:send.select_none')}
              onClick={() => choose(new Set())}
            />
          </div>
          <DataTable caption={t('invoices:send.title')}>
            <TableHead
              columns={[
                {
                  label: (
                    <SelectAllBox
                      label={t('invoices:send.select_all')}
                      checked={chosen.length === items.length}
                      mixed={chosen.length > 0 && chosen.length < items.length}
                      onChange={(checked) =>
                        choose(checked ? new Set(items.map((invoice) => invoice.invoiceID)) : new Set())
                      }
                    />
                  ),
                  className: 'data-table__check',
                },
                { label: t('invoices:list.columns.number'), className: 'data-table__key' },
                { label: t('invoices:list.columns.recipient') },
                { label: t('invoices:list.columns.service') },
                { label: t('invoices:list.columns.invoice_date') },
                { label: t('invoices:list.columns.due_date') },
                { label: t('invoices:list.columns.amount'), numeric: true },
              ]}
            />
            <tbody>
              {items.map((invoice) => (
                <tr
                  key={invoice.invoiceID}
                  className={selected.has(invoice.invoiceID) ? 'is-selected' : undefined}
                >
                  <CheckCell
                    label={t('invoices:send.select_invoice', { number: invoice.invoiceNumber })}
                    checked={selected.has(invoice.invoiceID)}
                    onChange={(checked) => toggle(invoice.invoiceID, checked)}
                  />
                  <th scope="row">
                    <Link to={paths.invoiceDetail.getHref(invoice.invoiceID)}>{invoice.invoiceNumber}</Link>
                    {invoiceStatus(invoice) === 'rejected' && (
                      // A rejected invoice waits here to be fixed and sent again: say so, with the reason.
                      <span className="send-page__rejected">
                        <InvoiceStateBadge
                          state={invoice.state}
                          decision={invoice.decision}
                          rejectionReason={invoice.rejectionReason}
                        />
                      </span>
                    )}
                  </th>
                  <td>{invoice.recipientName}</td>
                  <td>{t(SERVICE_KEYS[invoice.service])}</td>
                  <td>{formatDate(invoice.invoiceDate, language)}</td>
                  <SendDueAndAmountCells invoice={invoice} language={language} />
                </tr>
              ))}
            </tbody>
          </DataTable>
        </>
      )}

      <div className="send-page__footer">
        <div className="send-page__summary" aria-live="polite">
          <p>{t('invoices:send.selected', { count: chosen.length })}</p>
          {totals.length > 0 && (
            <CurrencyTotals
              totals={totals}
              caption={t('invoices:send.selection_title')}
              language={language}
            />
          )}
          <FeesPreview invoiceIDs={chosen.map((invoice) => invoice.invoiceID)} language={language} />
        </div>
        <div className="send-page__send">
          {error && <ErrorNotice>{error}</ErrorNotice>}
          <Button
            variant="success"
            loading={send.isPending}
            label={t('invoices:send.send')}
            onClick={askToSend}
          />
        </div>
      </div>
      {confirming && chosen.length > 0 && (
        <SendConfirmDialog
          invoices={chosen}
          language={language}
          sending={send.isPending}
          error={sendError}
          onConfirm={sendChosen}
          onHide={closeConfirm}
        />
      )}
    </div>
  );
}
