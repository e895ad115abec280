import type { Language } from '@portal/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TableHead } from '../../../components/ui/sortable-header';
import { type CurrencyTotal, formatMoney } from '../../../lib/money';

/**
 * A small table of one row per currency, the currency as the row's heading: the caption, the headings
 * of the amount columns after the currency's, and each currency's cells (`cells`). `children` is
 * the table's foot.
 */
export function PerCurrencyTable<R extends { currency: string }>({
  caption,
  headings,
  rows,
  cells,
  className,
  busy,
  children,
}: {
  caption: string;
  headings: readonly string[];
  rows: readonly R[];
  cells: (row: R) => ReactNode;
  className?: string;
  /** True while the rows are being fetched again (aria-busy). */
  busy?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <table className={className ? `currency-totals ${className}` : 'currency-totals'} aria-busy={busy}>
      <caption>{caption}</caption>
      <TableHead
        columns={[
          { label: t('invoices:totals.currency'), className: 'currency-totals__heading' },
          ...headings.map((label) => ({ label, numeric: true, className: 'currency-totals__heading' })),
        ]}
      />
      <tbody>
        {rows.map((row) => (
          <tr key={row.currency}>
            <th scope="row">{row.currency}</th>
            {cells(row)}
          </tr>
        ))}
      </tbody>
      {children}
    </table>
  );
}

/** Number of invoices and their total per currency, as a small table with a caption. */
export function CurrencyTotals({
  totals,
  caption,
  language,
}: {
  totals: readonly CurrencyTotal[];
  caption: string;
  language: Language;
}) {
  const { t } = useTranslation();
  const number = new Intl.NumberFormat(language);
  return (
    <PerCurrencyTable
      caption={caption}
      headings={[t('invoices:totals.count'), t('invoices:totals.amount')]}
      rows={totals}
      cells={(total) => (
        <>
          <td className="data-table__number">{number.format(total.count)}</td>
          <td className="data-table__number">{formatMoney(total.grossMinor, total.currency, language)}</td>
        </>
      )}
    />
  );
}
