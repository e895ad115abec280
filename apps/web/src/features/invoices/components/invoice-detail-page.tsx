import { type Ability, INVOICE_STATE, type InvoiceDetail, type Language } from '@portal/contracts';
import { formatQuantity } from '@portal/domain/quantity';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/list-results';
import { LoadFailure, PageSpinner } from '../../../components/ui/load-states';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { formatBasisPoints, formatDate, formatDateTime } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { errorText, translateCode } from '../../../lib/messages';
import { formatMoney } from '../../../lib/money';
import { useDeleteInvoice } from '../api/delete-invoice';
import { useDownloadInvoiceFile, useDownloadInvoicePdf } from '../api/download-documents';
import { useInvoice } from '../api/get-invoice';
import { useSendInvoices } from '../api/send-invoices';
import { formatFileSize } from '../utils/file-size';
import { eventKey, ROT_RUT_KEYS, SERVICE_KEYS, stateKey, statusKey, UNIT_KEYS } from '../utils/labels';
import { EventDetails } from './event-details';
import type { InvoiceNotice } from './invoice-form-screen';
import { InvoiceStateBadge } from './invoice-state-badge';
import { InvoiceTotals } from './invoice-totals';
import '../texts';

export interface InvoiceDetailPageProps {
  invoiceID: string;
  abilities: readonly Ability[];
  /** Set when the user arrives here right after saving the invoice. */
  notice?: InvoiceNotice | null;
}

const NOTICE_KEYS = {
  registered: 'invoices:detail.notice_registered',
  updated: 'invoices:detail.notice_updated',
} as const satisfies Record<InvoiceNotice, string>;

/**
 * `/invoices/:id`: every field of an invoice, its rows, VAT per rate, deduction, amount to pay, OCR
 * reference and timeline, with the actions its state allows: edit, delete and send while pending
 * (delete asks first), and duplicate.
 */
export function InvoiceDetailPage({ invoiceID, abilities, notice = null }: InvoiceDetailPageProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const invoice = useInvoice(invoiceID);

  if (invoice.isPending) {
    return <PageSpinner />;
  }
  if (invoice.isError) {
    const notFound = invoice.error instanceof ApiError && invoice.error.status === 404;
    return (
      <div className="invoice-page">
        <h1 className="page__title">{t('invoices:detail.title_unknown')}</h1>
        <LoadFailure
          message={notFound ? t('errors:invoices.not_found') : t('invoices:detail.load_error')}
          onRetry={notFound ? undefined : () => void invoice.refetch()}
        />
        <Link to={paths.invoices.getHref()}>{t('invoices:detail.back')}</Link>
      </div>
    );
  }
  return (
    <InvoiceDetailView invoice={invoice.data} abilities={abilities} notice={notice} language={language} />
  );
}

function InvoiceDetailView({
  invoice,
  abilities,
  notice,
  language,
}: {
  invoice: InvoiceDetail;
  abilities: readonly Ability[];
  notice: InvoiceNotice | null;
  language: Language;
}) {
  const { t } = useTranslation();
  const remove = useDeleteInvoice();
  const send = useSendInvoices();
  const sendKey = useRef(newIdempotencyKey());
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(
    notice ? { tone: 'success', text: t(NOTICE_KEYS[notice]) } : null,
  );

  const isPending = invoice.state === INVOICE_STATE.pending;
  const canRegister = abilities.includes('limited_register_invoice');
  const canSend = abilities.includes('limited_send_invoice');
  const money = (minor: number) => formatMoney(minor, invoice.currency, language);
  const rotRutType = invoice.rotRut.type === 'none' ? null : (invoice.rotRut.type ?? null);

  function sendNow() {
    setStatus(null);
    send.mutate(
      { invoiceIDs: [invoice.invoiceID], idempotencyKey: sendKey.current },
      {
        onSuccess: ({ results }) => {
          sendKey.current = newIdempotencyKey();
          const result = results[0];
          if (result?.ok) {
            setStatus({
              tone: 'success',
              text: t('invoices:detail.notice_sent', {
                state: t(stateKey(result.state ?? 0)),
                ocr: result.ocr ?? '',
              }),
            });
          } else {
            setStatus({ tone: 'error', text: translateCode(t, result?.code ?? 'server.internal') });
          }
        },
        onError: (error) => setStatus({ tone: 'error', text: errorText(t, error) }),
      },
    );
  }

  return (
    <div className="invoice-page stack">
      <p className="invoice-page__back">
        <Link to={paths.invoices.getHref()}>{t('invoices:detail.back')}</Link>
      </p>
      <header className="invoice-detail__header">
        <div>
          <h1 className="page__title">{t('invoices:detail.title', { number: invoice.invoiceNumber })}</h1>
          <p className="page__lead">{invoice.recipientName}</p>
        </div>
        <InvoiceStateBadge state={invoice.state} decision={invoice.decision} overdue={invoice.overdue} />
      </header>

      <div role="status" className="invoice-detail__status">
        {status && <p className={`notice notice--${status.tone}`}>{status.text}</p>}
      </div>

      <div className="button-row invoice-detail__actions">
        {isPending && canRegister && (
          <Link className="btn btn--secondary" to={paths.invoiceEdit.getHref(invoice.invoiceID)}>
            {t('invoices:detail.actions.edit')}
          </Link>
        )}
        {canRegister && (
          <Link className="btn btn--secondary" to={paths.invoicesDuplicate.getHref(invoice.invoiceID)}>
            {t('invoices:detail.actions.duplicate')}
          </Link>
        )}
        {isPending && canRegister && (
          <Button
            variant="danger"
            label={t('invoices:detail.actions.delete')}
            onClick={() => {
              remove.reset();
              setConfirmingDelete(true);
            }}
          />
        )}
        <Link className="btn btn--secondary" to={paths.invoiceMessages.getHref(invoice.invoiceID)}>
          {t('invoices:detail.actions.messages')}
        </Link>
        {isPending && canSend && (
          <Button
            variant="success"
            loading={send.isPending}
            label={t('invoices:detail.actions.send')}
            onClick={sendNow}
          />
        )}
      </div>

      {invoice.decision === 'rejected' && (
        <div className="notice notice--warning invoice-detail__rejected">
          <p>{t('invoices:detail.rejected')}</p>
          {invoice.rejectionReason && (
            <p>{t('invoices:detail.rejected_reason', { reason: invoice.rejectionReason })}</p>
          )}
        </div>
      )}

      <div className="invoice-detail__grid">
        <Card header={t('invoices:detail.sections.details')}>
          <dl className="facts">
            <dt>{t('invoices:detail.fields.recipient')}</dt>
            <dd>{invoice.recipientName}</dd>
            <dt>{t('invoices:detail.fields.service')}</dt>
            <dd>{t(SERVICE_KEYS[invoice.service])}</dd>
            <dt>{t('invoices:detail.fields.state')}</dt>
            <dd>{t(statusKey(invoice))}</dd>
            <dt>{t('invoices:detail.fields.invoice_date')}</dt>
            <dd>{formatDate(invoice.invoiceDate, language)}</dd>
            <dt>{t('invoices:detail.fields.due_date')}</dt>
            <dd>{formatDate(invoice.dueDate, language)}</dd>
            <dt>{t('invoices:detail.fields.created')}</dt>
            <dd>{formatDateTime(invoice.created, language)}</dd>
            <dt>{t('invoices:detail.fields.ocr')}</dt>
            <dd className="invoice-detail__ocr">{invoice.ocr ?? t('invoices:detail.no_ocr')}</dd>
            <dt>{t('invoices:detail.fields.currency')}</dt>
            <dd>{invoice.currency}</dd>
            {invoice.orderReference && (
              <>
                <dt>{t('invoices:detail.fields.order_reference')}</dt>
                <dd>{invoice.orderReference}</dd>
              </>
            )}
            {invoice.issuerContact && (
              <>
                <dt>{t('invoices:detail.fields.issuer_contact')}</dt>
                <dd>{invoice.issuerContact}</dd>
              </>
            )}
            {invoice.recipientContact && (
              <>
                <dt>{t('invoices:detail.fields.recipient_contact')}</dt>
                <dd>{invoice.recipientContact}</dd>
              </>
            )}
            {rotRutType && (
              <>
                <dt>{t('invoices:rot_rut.title')}</dt>
                <dd>{t(ROT_RUT_KEYS[rotRutType])}</dd>
                <dt>{t('invoices:rot_rut.personal_number')}</dt>
                <dd>{invoice.rotRut.personalNumber}</dd>
                {invoice.rotRut.propertyDesignation && (
                  <>
                    <dt>{t('invoices:rot_rut.property_designation')}</dt>
                    <dd>{invoice.rotRut.propertyDesignation}</dd>
                  </>
                )}
                {invoice.rotRut.housingCoopNumber && (
                  <>
                    <dt>{t('invoices:rot_rut.housing_coop_number')}</dt>
                    <dd>{invoice.rotRut.housingCoopNumber}</dd>
                  </>
                )}
              </>
            )}
          </dl>
        </Card>

        <Card header={t('invoices:detail.sections.timeline')}>
          <ol className="timeline">
            {invoice.events.map((event) => (
              <li key={event.eventID} className="timeline__item">
                <span className="timeline__event">{t(eventKey(event.event))}</span>
                <time className="timeline__date" dateTime={event.date}>
                  {formatDateTime(event.date, language)}
                </time>
                <EventDetails
                  event={event.event}
                  details={event.details}
                  currency={invoice.currency}
                  language={language}
                />
                {event.text && <span className="timeline__text">{event.text}</span>}
              </li>
            ))}
          </ol>
        </Card>
      </div>

      <InvoiceDocuments invoice={invoice} language={language} />

      <Card header={t('invoices:detail.sections.rows')}>
        <DataTable
          caption={t('invoices:detail.sections.rows')}
          className="data-table invoice-detail__rows"
          columns={[
            { label: t('invoices:form.rows.article_number') },
            { label: t('invoices:form.rows.name'), className: 'data-table__key' },
            { label: t('invoices:form.rows.quantity'), numeric: true },
            { label: t('invoices:form.rows.price'), numeric: true },
            { label: t('invoices:form.rows.vat'), numeric: true },
            { label: t('invoices:form.rows.amount'), numeric: true },
          ]}
        >
          <tbody>
            {invoice.rows.map((row, index) => (
              // Rows have no id of their own; their position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <tr key={index}>
                <td>{row.articleNumber}</td>
                <td className="data-table__key">
                  {row.name}
                  {row.rotRut && <span className="tag">{t('invoices:detail.labour')}</span>}
                  {row.description && (
                    <span className="invoice-detail__row-description">{row.description}</span>
                  )}
                </td>
                <td className="data-table__number">
                  {formatQuantity(row.quantityMilli, language)} {t(UNIT_KEYS[row.unit])}
                </td>
                <td className="data-table__number">{money(row.unitPriceMinor)}</td>
                <td className="data-table__number">{formatBasisPoints(row.vatBasisPoints, language)}</td>
                <td className="data-table__number">{money(row.netMinor)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
        <div className="invoice-detail__totals">
          <InvoiceTotals
            currency={invoice.currency}
            language={language}
            figures={{
              netMinor: invoice.netMinor,
              vat: invoice.vat,
              grossMinor: invoice.grossMinor,
              deductionMinor: invoice.deductionMinor,
              deductionType: rotRutType,
              toPayMinor: invoice.toPayMinor,
            }}
          />
          {invoice.remainingMinor !== invoice.toPayMinor && invoice.state !== INVOICE_STATE.deleted && (
            <p className="invoice-detail__remaining">
              {t('invoices:detail.remaining', { amount: money(invoice.remainingMinor) })}
            </p>
          )}
        </div>
      </Card>

      {confirmingDelete && (
        <ConfirmDialog
          title={t('invoices:delete.title')}
          message={t('invoices:delete.text', { number: invoice.invoiceNumber })}
          confirmLabel={t('invoices:detail.actions.delete')}
          action={remove}
          onHide={() => setConfirmingDelete(false)}
          onConfirm={() =>
            remove.mutate(invoice.invoiceID, {
              onSuccess: () => {
                setConfirmingDelete(false);
                setStatus({
                  tone: 'success',
                  text: t('invoices:detail.notice_deleted', { number: invoice.invoiceNumber }),
                });
              },
            })
          }
        />
      )}
    </div>
  );
}

/**
 * Our PDF of the invoice in the user's language, and the PDFs uploaded with it (its own PDF and
 * attachments). A failed download shows the spec §8 text "unable to download document".
 */
function InvoiceDocuments({ invoice, language }: { invoice: InvoiceDetail; language: Language }) {
  const { t } = useTranslation();
  const pdf = useDownloadInvoicePdf();
  const file = useDownloadInvoiceFile();
  const failed = pdf.isError || file.isError;
  return (
    <Card header={t('invoices:detail.sections.documents')}>
      <div className="stack">
        <div className="button-row">
          <Button
            variant="secondary"
            loading={pdf.isPending}
            label={t('invoices:detail.actions.download_pdf')}
            onClick={() => {
              file.reset();
              pdf.mutate({ invoiceID: invoice.invoiceID, invoiceNumber: invoice.invoiceNumber });
            }}
          />
        </div>
        {invoice.files.length === 0 ? (
          <p className="muted">{t('invoices:detail.no_files')}</p>
        ) : (
          <ul className="file-list" aria-label={t('invoices:detail.fields.files')}>
            {invoice.files.map((item) => (
              <li key={item.fileID} className="file-list__item">
                <button
                  type="button"
                  className="link-button"
                  disabled={file.isPending}
                  onClick={() => {
                    pdf.reset();
                    file.mutate({ fileID: item.fileID, filename: item.filename });
                  }}
                >
                  {item.filename}
                </button>
                <span className="file-list__meta">
                  {item.role === 'invoice' ? t('invoices:detail.file_role_invoice') : null}{' '}
                  {formatFileSize(item.size, language)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <div role="alert">
          {failed && <p className="notice notice--error">{t('errors:files.not_found')}</p>}
        </div>
      </div>
    </Card>
  );
}
