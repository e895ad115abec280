import { type Language, type PendingInvoice, SEND_MIN_DAYS_TO_DUE } from '@portal/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../../components/ui/load-states';
import { Modal } from '../../../components/ui/modal';
import { TableHead } from '../../../components/ui/sortable-header';
import { formatDate } from '../../../lib/format';
import { formatMoney, totalsByCurrency } from '../../../lib/money';
import { useFeesPreview } from '../api/preview-fees';
import { CurrencyTotals } from './currency-totals';
import { FeesPreview } from './fees-preview';

/** The flag of a pending invoice whose due date stops it from being sent (the server's `sendCode`). */
export function SendFlag({ code }: { code: PendingInvoice['sendCode'] }) {
  const { t } = useTranslation();
  if (!code) return null;
  return <span className="send-flag">{sendFlagText(t, code)}</span>;
}

/** A pending invoice's due date, flagged where it is too near or passed, and its amount: two cells. */
export function SendDueAndAmountCells({
  invoice,
  language,
}: {
  invoice: PendingInvoice;
  language: Language;
}) {
  return (
    <>
      <td>
        {formatDate(invoice.dueDate, language)} <SendFlag code={invoice.sendCode} />
      </td>
      <td className="data-table__number">{formatMoney(invoice.grossMinor, invoice.currency, language)}</td>
    </>
  );
}

function sendFlagText(t: TFunction, code: NonNullable<PendingInvoice['sendCode']>): string {
  return code === 'invoices.due_date_passed'
    ? t('invoices:send.flag_passed')
    : t('invoices:send.flag_too_soon', { days: SEND_MIN_DAYS_TO_DUE });
}

export interface SendConfirmDialogProps {
  invoices: readonly PendingInvoice[];
  language: Language;
  /** The send is under way: the dialog is covered and cannot be confirmed twice. */
  sending: boolean;
  /** A translated failure of the send, shown in the dialog. */
  error: string | null;
  onConfirm: () => void;
  onHide: () => void;
}

/**
 * Asks before sending (issue #11): the chosen invoices, their total per currency, the fees and the
 * payout as the payout run computes them. Nothing is sent until Send is pressed; Cancel, Escape and the
 * close icon send nothing. An invoice the due-date rule stops is flagged and Send stays disabled,
 * because the server sends all of a request or none of it.
 */
export function SendConfirmDialog({
  invoices,
  language,
  sending,
  error,
  onConfirm,
  onHide,
}: SendConfirmDialogProps) {
  const { t } = useTranslation();
  const ids = invoices.map((invoice) => invoice.invoiceID);
  const preview = useFeesPreview(ids);
  const flagged = invoices.some((invoice) => invoice.sendCode !== null);
  return (
    <Modal
      title={t('invoices:send.confirm_title')}
      subtitle={t('invoices:send.confirm_lead')}
      onHide={onHide}
      onSubmit={onConfirm}
      submitLabel={t('invoices:send.confirm', { count: invoices.length })}
      submitVariant="success"
      disableSubmit={flagged || preview.isPending || preview.isFetching}
      loading={sending}
      wide
      className="send-confirm"
    >
      <div className="stack">
        <div className="table-wrap send-confirm__invoices">
          <table className="data-table">
            <caption>{t('invoices:send.confirm_invoices')}</caption>
            <TableHead
              columns={[
                { label: t('invoices:list.columns.number') },
                { label: t('invoices:list.columns.recipient') },
                { label: t('invoices:list.columns.due_date') },
                { label: t('invoices:list.columns.amount'), numeric: true },
              ]}
            />
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.invoiceID} className={invoice.sendCode ? 'is-flagged' : undefined}>
                  <th scope="row">{invoice.invoiceNumber}</th>
                  <td>{invoice.recipientName}</td>
                  <SendDueAndAmountCells invoice={invoice} language={language} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {flagged && (
          <p className="notice notice--warning">
            {t('invoices:send.flags_note', { days: SEND_MIN_DAYS_TO_DUE })}
          </p>
        )}
        <div className="send-confirm__sums">
          <CurrencyTotals
            totals={totalsByCurrency(invoices)}
            caption={t('invoices:send.confirm_totals')}
            language={language}
          />
          <FeesPreview invoiceIDs={ids} language={language} />
        </div>
        {error && <ErrorNotice>{error}</ErrorNotice>}
      </div>
    </Modal>
  );
}
