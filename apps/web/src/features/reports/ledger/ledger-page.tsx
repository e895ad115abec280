import type { LEDGER_SORT_FIELDS } from '@portal/contracts';
import { formatAmount } from '@portal/domain/money';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DateField } from '../../../components/ui/date-field';
import { DataTable, ListResults, sortPropsOf } from '../../../components/ui/list-results';
import { paths } from '../../../config/paths';
import { formatDate, toIsoDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { formatMoney } from '../../../lib/money';
import { downloadLedger, type LedgerListQuery, useLedger } from './ledger-api';
import './texts';

type Sort = (typeof LEDGER_SORT_FIELDS)[number];

/**
 * `/reports/ledger` (spec §3): the open ledger as of a date (today by default), paged and sorted,
 * with totals per currency and the Excel and PDF downloads of the same date. An installment plan's
 * invoice says which plan it belongs to under its service (issue #14): the plan and its loan number,
 * a link to the plan's page for a user who may open it (`canViewPlans`). Sorted by invoice number, a
 * plan's invoices (`<loan number>-<n>`) stand together.
 */
export function LedgerPage({ canViewPlans = false }: { canViewPlans?: boolean }) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState<LedgerListQuery>({
    date: toIsoDate(new Date()),
    page: 1,
    pageSize: 25,
    sort: 'invoiceNumber',
    order: 'asc',
  });
  const [downloading, setDownloading] = useState<'excel' | 'pdf' | null>(null);
  const ledger = useLedger(query);
  const money = (minor: number, currency: string) => formatMoney(minor, currency, i18n.language);
  const update = (patch: Partial<LedgerListQuery>) => setQuery((q) => ({ ...q, ...patch }));
  const sortProps = sortPropsOf(query, update);
  const download = async (fileType: 'excel' | 'pdf') => {
    setDownloading(fileType);
    await downloadLedger({ date: query.date, fileType });
    setDownloading(null);
  };
  const column = (key: string) => t(`reports:ledger.columns.${key}`);

  return (
    // Twelve columns: the page takes the width of the screen (list-page--wide), the downloads sit together.
    <div className="list-page list-page--wide">
      <h1 className="page__title">{t('reports:ledger.title')}</h1>
      <p className="page__lead">{t('reports:ledger.intro')}</p>
      <div className="list-toolbar">
        <DateField
          name="date"
          label={t('reports:ledger.date')}
          value={query.date}
          onChange={(date) => {
            if (/^\d{4}-\d{2}-\d{2}$/.test(date)) setQuery((q) => ({ ...q, date, page: 1 }));
          }}
        />
        <div className="list-toolbar__actions">
          <Button
            variant="secondary"
            label={t('reports:ledger.excel')}
            loading={downloading === 'excel'}
            onClick={() => void download('excel')}
          />
          <Button
            variant="secondary"
            label={t('reports:ledger.pdf')}
            loading={downloading === 'pdf'}
            onClick={() => void download('pdf')}
          />
        </div>
      </div>

      <ListResults
        list={ledger}
        query={query}
        onQueryChange={update}
        pagesLabel={t('reports:ledger.pages')}
        empty={t('reports:ledger.empty')}
        retry={false}
      >
        {(data) => (
          <>
            <ul className="ledger-totals" aria-label={t('reports:ledger.title')}>
              {data.totals.map((total) => (
                <li key={total.currency}>
                  {t('reports:ledger.total', {
                    currency: total.currency,
                    amount: money(total.amountMinor, total.currency),
                    remaining: money(total.remainingMinor, total.currency),
                    count: total.count,
                  })}
                </li>
              ))}
            </ul>
            <DataTable<Sort>
              caption={t('reports:ledger.title')}
              busy={ledger.isFetching}
              sortProps={sortProps}
              columns={[
                { label: column('invoiceNumber'), sort: 'invoiceNumber' },
                { label: column('invoiceDate'), sort: 'invoiceDate' },
                { label: column('dueDate'), sort: 'dueDate' },
                { label: column('service') },
                { label: column('customer'), sort: 'customer' },
                { label: column('organizationNumber') },
                { label: column('city') },
                { label: column('sni') },
                { label: column('amount'), sort: 'amount', numeric: true },
                { label: column('currency') },
                { label: column('remaining'), sort: 'remaining', numeric: true },
                { label: column('process') },
              ]}
            >
              <tbody>
                {data.items.map((row) => (
                  <tr key={row.invoiceID}>
                    <th scope="row">{row.invoiceNumber}</th>
                    <td className="data-table__nowrap">{formatDate(row.invoiceDate, i18n.language)}</td>
                    <td className="data-table__nowrap">{formatDate(row.dueDate, i18n.language)}</td>
                    <td>
                      {t(`invoices:services.${row.service}`)}
                      {row.installmentPlanID && row.loanNumber ? (
                        <span className="ledger-plan">
                          {canViewPlans ? (
                            <Link to={paths.installmentPlanDetail.getHref(row.installmentPlanID)}>
                              {t('reports:ledger.plan', { loanNumber: row.loanNumber })}
                            </Link>
                          ) : (
                            t('reports:ledger.plan', { loanNumber: row.loanNumber })
                          )}
                        </span>
                      ) : null}
                    </td>
                    <td>{row.customer}</td>
                    <td className="data-table__nowrap">{row.organizationNumber}</td>
                    <td>{row.city}</td>
                    <td>{row.sni}</td>
                    {/* The currency has its own column: the amounts are figures only, so twelve columns fit. */}
                    <td className="data-table__number data-table__nowrap">
                      {formatAmount(row.amountMinor, toLanguage(i18n.language))}
                    </td>
                    <td>{row.currency}</td>
                    <td className="data-table__number data-table__nowrap">
                      {formatAmount(row.remainingMinor, toLanguage(i18n.language))}
                    </td>
                    <td>{t(`reports:ledger.process.${row.process}`)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </>
        )}
      </ListResults>
    </div>
  );
}
