import { INVOICE_FILTERS, INVOICES_PDF_MAX, type InvoiceFilter, type Language } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CheckCell, SelectAllBox } from '../../../components/ui/check-cells';
import { DateRange } from '../../../components/ui/date-field';
import { LinkedRow } from '../../../components/ui/linked-row';
import { DataTable, ListResults, useListControls } from '../../../components/ui/list-results';
import { ListToolbar } from '../../../components/ui/list-toolbar';
import { MoneyCells } from '../../../components/ui/money-cells';
import { Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { translateCode } from '../../../lib/messages';
import { bucketLabelKey } from '../../../lib/overdue-buckets';
import { useDownloadInvoicesPdf } from '../api/download-documents';
import { type InvoiceListQuery, useInvoices } from '../api/list-invoices';
import { FILTER_KEYS } from '../utils/labels';
import { CurrencyTotals } from './currency-totals';
import { InvoiceStateBadge } from './invoice-state-badge';
import '../texts';

export interface InvoiceHistoryPageProps {
  query: InvoiceListQuery;
  onQueryChange: (patch: Partial<InvoiceListQuery>, options?: { replace?: boolean }) => void;
}

const NO_SELECTION: ReadonlySet<string> = new Set();

/**
 * The chosen invoices and what can be done with them: their count, clearing the choice and one PDF of
 * them all. A failure shows the spec §8 text "unable to create document for selected records", or
 * "too many records" beyond the server's limit (checked here first, so no call is wasted).
 */
function SelectionBar({
  selected,
  language,
  onClear,
}: {
  selected: ReadonlySet<string>;
  language: Language;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const pdf = useDownloadInvoicesPdf();
  // The message belongs to the choice it was about: a changed choice starts over.
  const [failure, setFailure] = useState<{ ids: ReadonlySet<string>; text: string } | null>(null);
  const error = failure?.ids === selected ? failure.text : null;
  const tooMany = () => translateCode(t, 'invoices.too_many_records');

  function download() {
    const ids = selected;
    if (ids.size > INVOICES_PDF_MAX) {
      setFailure({ ids, text: tooMany() });
      return;
    }
    setFailure(null);
    pdf.mutate(
      { invoiceIDs: [...ids], language },
      {
        onError: (err) =>
          setFailure({
            ids,
            text:
              err instanceof ApiError && err.code === 'invoices.too_many_records'
                ? tooMany()
                : t('invoices:list.pdf_failed'),
          }),
      },
    );
  }

  return (
    <section className="selection-bar" aria-label={t('invoices:list.selection')}>
      <p className="selection-bar__count" aria-live="polite">
        {t('invoices:list.selected', { count: selected.size })}
      </p>
      <div className="selection-bar__actions">
        {selected.size > 0 && (
          <Button variant="transparent" label={t('invoices:list.clear_selection')} onClick={onClear} />
        )}
        <Button
          variant="secondary"
          loading={pdf.isPending}
          disabled={selected.size === 0}
          label={t('invoices:list.download_pdf')}
          onClick={download}
        />
      </div>
      <div role="alert" className="selection-bar__error">
        {error && <p className="notice notice--error">{error}</p>}
      </div>
    </section>
  );
}

/**
 * `/invoices` (spec §2, §4): the invoice history with the filter tabs, search by number, recipient
 * or OCR, an invoice date range, sortable columns, pages, and the totals per currency of everything
 * that matched. A row opens the invoice. The query lives in the URL.
 */
export function InvoiceHistoryPage({ query, onQueryChange }: InvoiceHistoryPageProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const list = useInvoices(query);
  const data = list.data;

  // The chosen invoices stay chosen across pages and sorting, and are let go when the filters change:
  // the choice belongs to the list it was made in.
  const filtersKey = JSON.stringify([query.filter, query.search, query.from, query.to, query.recipientID]);
  const [selection, setSelection] = useState({ filtersKey, ids: NO_SELECTION });
  if (selection.filtersKey !== filtersKey) setSelection({ filtersKey, ids: NO_SELECTION });
  const selected = selection.filtersKey === filtersKey ? selection.ids : NO_SELECTION;
  const choose = (ids: ReadonlySet<string>) => setSelection({ filtersKey, ids });
  const pageIds = data?.items.map((invoice) => invoice.invoiceID) ?? [];
  const chosenOnPage = pageIds.filter((id) => selected.has(id)).length;
  function toggle(ids: readonly string[], checked: boolean) {
    const next = new Set(selected);
    for (const id of ids) {
      if (checked) next.add(id);
      else next.delete(id);
    }
    choose(next);
  }

  const { searchProps, resultsProps, tableProps } = useListControls(list, query, onQueryChange);

  const results = (
    <div className="stack">
      <ListResults {...resultsProps} pagesLabel={t('invoices:list.pages')} empty={t('invoices:list.empty')}>
        {(data) => (
          <>
            <SelectionBar selected={selected} language={language} onClear={() => choose(NO_SELECTION)} />
            <DataTable
              caption={t('invoices:list.title')}
              className="data-table invoice-table"
              {...tableProps}
              columns={[
                {
                  label: (
                    <SelectAllBox
                      label={t('invoices:list.select_page')}
                      checked={pageIds.length > 0 && chosenOnPage === pageIds.length}
                      mixed={chosenOnPage > 0 && chosenOnPage < pageIds.length}
                      onChange={(checked) => toggle(pageIds, checked)}
                    />
                  ),
                  className: 'data-table__check',
                },
                {
                  label: t('invoices:list.columns.number'),
                  sort: 'invoiceNumber',
                  className: 'data-table__key',
                },
                { label: t('invoices:list.columns.recipient'), sort: 'recipientName' },
                { label: t('invoices:list.columns.invoice_date'), sort: 'invoiceDate' },
                { label: t('invoices:list.columns.due_date'), sort: 'dueDate' },
                { label: t('invoices:list.columns.amount'), sort: 'grossMinor', numeric: true },
                { label: t('invoices:list.columns.remaining'), numeric: true },
                { label: t('invoices:list.columns.state') },
                { label: t('invoices:list.columns.ocr') },
              ]}
            >
              <tbody>
                {data.items.map((invoice) => (
                  // The number is a link for the keyboard; a click anywhere on the row but its checkbox
                  // cell does the same.
                  <LinkedRow
                    key={invoice.invoiceID}
                    to={paths.invoiceDetail.getHref(invoice.invoiceID)}
                    skip="a, .data-table__check"
                    className={[
                      invoice.overdue && 'is-overdue',
                      selected.has(invoice.invoiceID) && 'is-selected',
                    ]
                      .filter(Boolean)
                      .join(' ')}
                  >
                    <CheckCell
                      label={t('invoices:list.select_invoice', { number: invoice.invoiceNumber })}
                      checked={selected.has(invoice.invoiceID)}
                      onChange={(checked) => toggle([invoice.invoiceID], checked)}
                    />
                    <th scope="row">
                      <Link to={paths.invoiceDetail.getHref(invoice.invoiceID)}>{invoice.invoiceNumber}</Link>
                    </th>
                    <td>{invoice.recipientName}</td>
                    <td>{formatDate(invoice.invoiceDate, language)}</td>
                    <td>{formatDate(invoice.dueDate, language)}</td>
                    <MoneyCells
                      amounts={[invoice.grossMinor, invoice.remainingMinor]}
                      currency={invoice.currency}
                      language={language}
                    />
                    <td>
                      <InvoiceStateBadge
                        state={invoice.state}
                        decision={invoice.decision}
                        overdue={invoice.overdue}
                        rejectionReason={invoice.rejectionReason}
                      />
                    </td>
                    <td className="invoice-table__ocr">{invoice.ocr ?? ''}</td>
                  </LinkedRow>
                ))}
              </tbody>
            </DataTable>
            <CurrencyTotals
              totals={data.totals}
              caption={t('invoices:list.totals_title')}
              language={language}
            />
          </>
        )}
      </ListResults>
    </div>
  );

  return (
    <div className="list-page invoice-page">
      <h1 className="page__title">{t('invoices:list.title')}</h1>
      <p className="page__lead">{t('invoices:list.lead')}</p>
      {query.bucket ? (
        <p className="notice" data-testid="bucket-filter">
          {t('dashboard:overview.bucket_active', { days: t(bucketLabelKey(query.bucket)) })}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => onQueryChange({ bucket: undefined, page: 1 })}
          >
            {t('dashboard:overview.bucket_clear')}
          </button>
        </p>
      ) : null}
      <div className="invoice-filters">
        <ListToolbar
          {...searchProps}
          searchLabel={t('invoices:list.search')}
          searchHint={t('invoices:list.search_hint')}
        />
        <DateRange
          legend={t('invoices:list.date_range')}
          fromLabel={t('invoices:list.from')}
          toLabel={t('invoices:list.to')}
          from={query.from ?? ''}
          to={query.to ?? ''}
          onChange={(range) => onQueryChange({ ...range, page: 1 }, { replace: true })}
        />
      </div>
      <Tabs<InvoiceFilter>
        aria-label={t('invoices:list.filters')}
        activeKey={query.filter}
        onChange={(filter) => onQueryChange({ filter, page: 1 })}
        tabs={INVOICE_FILTERS.map((filter) => ({
          key: filter,
          label: t(FILTER_KEYS[filter]),
          content: results,
        }))}
      />
    </div>
  );
}
