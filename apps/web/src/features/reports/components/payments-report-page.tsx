import { isValidIsoDate } from '@portal/domain/calendar-date';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateField } from '../../../components/ui/date-field';
import { DataTable, ListPagination } from '../../../components/ui/list-results';
import { ErrorNotice } from '../../../components/ui/load-states';
import { MoneyCells } from '../../../components/ui/money-cells';
import { SelectField } from '../../../components/ui/select-field';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { formatMoney } from '../../../lib/money';
import { downloadPaymentsReport, type PaymentsReportState, usePaymentsReport } from '../api/payments-report';
import '../texts';

/** The files the whole period downloads as, with their buttons' texts, in the order of the buttons. */
const DOWNLOADS = [
  { format: 'excel', label: 'reports:payments.excel' },
  { format: 'csv', label: 'reports:payments.csv' },
] as const;
type DownloadFormat = (typeof DOWNLOADS)[number]['format'];

export interface PaymentsReportPageProps {
  query: PaymentsReportState;
  onQueryChange: (patch: Partial<PaymentsReportState>) => void;
  /** The recipients to filter by (the route reads them from the recipients feature). */
  recipients: readonly { recipientID: string; name: string }[];
}

/**
 * `/reports/payments`: the payments received on the caller's invoices in a period (the current month
 * unless the URL says otherwise), filtered by recipient and invoice number, paged, with the total per
 * currency of everything that matched, and the whole period as Excel or CSV.
 */
export function PaymentsReportPage({ query, onQueryChange, recipients }: PaymentsReportPageProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const report = usePaymentsReport(query);
  const [draft, setDraft] = useState({
    from: query.from,
    to: query.to,
    recipientID: query.recipientID ?? '',
    invoiceNumber: query.invoiceNumber ?? '',
  });
  const [downloading, setDownloading] = useState<DownloadFormat | null>(null);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const wrongOrder = draft.from !== '' && draft.to !== '' && draft.to < draft.from;
  const complete = isValidIsoDate(draft.from) && isValidIsoDate(draft.to);

  function apply(event: React.FormEvent) {
    event.preventDefault();
    if (!complete || wrongOrder) return;
    onQueryChange({
      from: draft.from,
      to: draft.to,
      recipientID: draft.recipientID || undefined,
      invoiceNumber: draft.invoiceNumber.trim() || undefined,
      page: 1,
    });
  }

  async function download(format: DownloadFormat) {
    setDownloading(format);
    setDownloadFailed(false);
    const ok = await downloadPaymentsReport(query, format, language);
    setDownloading(null);
    setDownloadFailed(!ok);
  }

  const data = report.data;
  const number = new Intl.NumberFormat(language);
  return (
    <div className="stack">
      <h1>{t('reports:payments.title')}</h1>
      <p>{t('reports:payments.intro')}</p>
      <form className="stack" onSubmit={apply} aria-label={t('reports:payments.filter')}>
        <div className="date-range__fields">
          <DateField
            label={t('reports:payments.from')}
            name="from"
            value={draft.from}
            onChange={(from) => setDraft({ ...draft, from })}
          />
          <DateField
            label={t('reports:payments.to')}
            name="to"
            value={draft.to}
            onChange={(to) => setDraft({ ...draft, to })}
            error={wrongOrder ? 'reports.wrong_date_range' : undefined}
          />
          <SelectField
            label={t('reports:payments.recipient')}
            name="recipientID"
            value={draft.recipientID}
            onChange={(recipientID) => setDraft({ ...draft, recipientID })}
            options={[
              { value: '', label: t('reports:payments.allRecipients') },
              ...recipients.map((r) => ({ value: r.recipientID, label: r.name })),
            ]}
          />
          <TextInput
            label={t('reports:payments.invoiceNumber')}
            name="invoiceNumber"
            value={draft.invoiceNumber}
            maxLength={30}
            onChange={(invoiceNumber) => setDraft({ ...draft, invoiceNumber })}
          />
        </div>
        <div>
          <Button type="submit" label={t('reports:payments.filter')} disabled={!complete || wrongOrder} />
        </div>
      </form>

      {report.isPending && <Spinner size="large" />}
      {report.isError && <ErrorNotice error={report.error} />}
      {data && (
        <>
          <ul className="stack" aria-label={t('reports:payments.title')}>
            {data.totals.map((total) => (
              <li key={total.currency}>
                <strong>
                  {t('reports:payments.total', {
                    currency: total.currency,
                    amount: formatMoney(total.amountMinor, total.currency, language),
                    count: number.format(total.count),
                  })}
                </strong>
              </li>
            ))}
          </ul>
          <div className="selection-bar__actions">
            {DOWNLOADS.map(({ format, label }) => (
              <Button
                key={format}
                variant="secondary"
                label={t(label)}
                loading={downloading === format}
                disabled={data.total === 0}
                onClick={() => download(format)}
              />
            ))}
          </div>
          {downloadFailed && <ErrorNotice error={null} />}
          {data.items.length === 0 ? (
            <p>{t('reports:payments.empty')}</p>
          ) : (
            <DataTable
              caption={t('reports:payments.title')}
              wrapClassName="data-table__scroll"
              columns={[
                { label: t('reports:payments.columns.paymentDate') },
                { label: t('reports:payments.columns.invoiceNumber'), className: 'data-table__key' },
                { label: t('reports:payments.columns.recipient') },
                { label: t('reports:payments.columns.reference') },
                { label: t('reports:payments.columns.payer') },
                { label: t('reports:payments.columns.amount'), numeric: true },
                { label: t('reports:payments.columns.applied'), numeric: true },
                { label: t('reports:payments.columns.overpaid'), numeric: true },
              ]}
            >
              <tbody>
                {data.items.map((p) => (
                  <tr key={p.paymentID}>
                    <td>{formatDate(p.paymentDate, language)}</td>
                    <td className="data-table__key">{p.invoiceNumber}</td>
                    <td>{p.recipientName}</td>
                    <td>
                      {p.reference}
                      {p.deduction && (
                        <span className="data-table__note">
                          {t(`reports:payments.deduction.${p.deduction}`)}
                        </span>
                      )}
                    </td>
                    <td>{p.payerName}</td>
                    <MoneyCells
                      amounts={[p.amountMinor, p.appliedMinor, p.overpaidMinor]}
                      currency={p.currency}
                      language={language}
                    />
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
          <ListPagination
            query={query}
            total={data.total}
            label={t('reports:payments.title')}
            onQueryChange={onQueryChange}
          />
        </>
      )}
    </div>
  );
}
