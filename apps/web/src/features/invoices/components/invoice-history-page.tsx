import { INVOICE_FILTERS, type InvoiceFilter } from '@portal/contracts';
import { isValidIsoDate } from '@portal/domain/calendar-date';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ListToolbar } from '../../../components/ui/list-toolbar';
import { Pagination } from '../../../components/ui/pagination';
import { SortableHeader } from '../../../components/ui/sortable-header';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { TextInput } from '../../../components/ui/text-input';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { type InvoiceListQuery, useInvoices } from '../api/list-invoices';
import { FILTER_KEYS } from '../utils/labels';
import { formatInvoiceMoney } from '../utils/money';
import { CurrencyTotals } from './currency-totals';
import { InvoiceStateBadge } from './invoice-state-badge';
import '../texts';

export interface InvoiceHistoryPageProps {
  query: InvoiceListQuery;
  onQueryChange: (patch: Partial<InvoiceListQuery>, options?: { replace?: boolean }) => void;
}

/**
 * The invoice date range above the list. A date is applied once it is complete; a range whose end is
 * before its start is shown as an error and not applied.
 */
function DateRange({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from: string | undefined; to: string | undefined }) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const wrongOrder = draft.from !== '' && draft.to !== '' && draft.to < draft.from;

  function change(next: { from: string; to: string }) {
    setDraft(next);
    const complete = (v: string) => v === '' || isValidIsoDate(v);
    if (!complete(next.from) || !complete(next.to)) return;
    if (next.from !== '' && next.to !== '' && next.to < next.from) return;
    onChange({ from: next.from || undefined, to: next.to || undefined });
  }

  return (
    <fieldset className="date-range">
      <legend className="field__label">{t('invoices:list.date_range')}</legend>
      <div className="date-range__fields">
        <TextInput
          label={t('invoices:list.from')}
          type="date"
          name="from"
          value={draft.from}
          onChange={(value) => change({ ...draft, from: value })}
        />
        <TextInput
          label={t('invoices:list.to')}
          type="date"
          name="to"
          value={draft.to}
          onChange={(value) => change({ ...draft, to: value })}
          error={wrongOrder ? 'reports.wrong_date_range' : undefined}
        />
      </div>
    </fieldset>
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
  const navigate = useNavigate();
  const list = useInvoices(query);
  const data = list.data;

  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  useEffect(() => {
    // A shared link or a narrower filter can leave the page past the end: show the last one instead.
    if (data && !list.isPlaceholderData && data.items.length === 0 && query.page > lastPage) {
      onQueryChange({ page: lastPage }, { replace: true });
    }
  }, [data, list.isPlaceholderData, query.page, lastPage, onQueryChange]);

  const sortProps = {
    sort: query.sort,
    order: query.order,
    onSort: (sort: InvoiceListQuery['sort'], order: InvoiceListQuery['order']) =>
      onQueryChange({ sort, order, page: 1 }),
  };

  const results = (
    <div className="stack">
      {list.isPending && (
        <div className="page--center">
          <Spinner size="large" />
        </div>
      )}
      {list.isError && (
        <div className="notice notice--error" role="alert">
          <p>{errorText(t, list.error)}</p>
          <Button variant="secondary" label={t('common:actions.retry')} onClick={() => void list.refetch()} />
        </div>
      )}
      {data && data.total === 0 && <p className="empty-state">{t('invoices:list.empty')}</p>}
      {data && data.total > 0 && (
        <>
          <div className="table-wrap" aria-busy={list.isFetching || undefined}>
            <table className="data-table invoice-table">
              <caption className="visually-hidden">{t('invoices:list.title')}</caption>
              <thead>
                <tr>
                  <SortableHeader
                    field="invoiceNumber"
                    label={t('invoices:list.columns.number')}
                    {...sortProps}
                  />
                  <SortableHeader
                    field="recipientName"
                    label={t('invoices:list.columns.recipient')}
                    {...sortProps}
                  />
                  <SortableHeader
                    field="invoiceDate"
                    label={t('invoices:list.columns.invoice_date')}
                    {...sortProps}
                  />
                  <SortableHeader
                    field="dueDate"
                    label={t('invoices:list.columns.due_date')}
                    {...sortProps}
                  />
                  <SortableHeader
                    field="grossMinor"
                    label={t('invoices:list.columns.amount')}
                    className="data-table__number"
                    {...sortProps}
                  />
                  <th scope="col">{t('invoices:list.columns.state')}</th>
                  <th scope="col">{t('invoices:list.columns.ocr')}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((invoice) => (
                  // The number is a link for the keyboard; a click anywhere on the row does the same.
                  <tr
                    key={invoice.invoiceID}
                    className={['is-clickable', invoice.overdue && 'is-overdue'].filter(Boolean).join(' ')}
                    onClick={(event) => {
                      if ((event.target as HTMLElement).closest('a')) return;
                      void navigate(paths.invoiceDetail.getHref(invoice.invoiceID));
                    }}
                  >
                    <th scope="row">
                      <Link to={paths.invoiceDetail.getHref(invoice.invoiceID)}>{invoice.invoiceNumber}</Link>
                    </th>
                    <td>{invoice.recipientName}</td>
                    <td>{formatDate(invoice.invoiceDate, language)}</td>
                    <td>{formatDate(invoice.dueDate, language)}</td>
                    <td className="data-table__number">
                      {formatInvoiceMoney(invoice.grossMinor, invoice.currency, language)}
                    </td>
                    <td>
                      <InvoiceStateBadge state={invoice.state} overdue={invoice.overdue} />
                    </td>
                    <td className="invoice-table__ocr">{invoice.ocr ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <CurrencyTotals
            totals={data.totals}
            caption={t('invoices:list.totals_title')}
            language={language}
          />
          <Pagination
            page={query.page}
            pageSize={query.pageSize}
            total={data.total}
            label={t('invoices:list.pages')}
            onPageChange={(page) => onQueryChange({ page })}
            onPageSizeChange={(pageSize) => onQueryChange({ pageSize, page: 1 })}
          />
        </>
      )}
    </div>
  );

  return (
    <div className="list-page invoice-page">
      <h1 className="page__title">{t('invoices:list.title')}</h1>
      <p className="page__lead">{t('invoices:list.lead')}</p>
      <div className="invoice-filters">
        <ListToolbar
          search={query.search ?? ''}
          onSearch={(search) => onQueryChange({ search, page: 1 }, { replace: true })}
          searchLabel={t('invoices:list.search')}
          searchHint={t('invoices:list.search_hint')}
        />
        <DateRange
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
