import type { Language } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { TableHead } from '../../../components/ui/sortable-header';
import { type CurrencyTotal, formatMoney } from '../../../lib/money';

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
    <table className="currency-totals">
      <caption>{caption}</caption>
      <TableHead
        columns={[
          { label: t('invoices:totals.currency'), className: 'currency-totals__heading' },
          { label: t('invoices:totals.count'), numeric: true, className: 'currency-totals__heading' },
          { label: t('invoices:totals.amount'), numeric: true, className: 'currency-totals__heading' },
        ]}
      />
      <tbody>
        {totals.map((total) => (
          <tr key={total.currency}>
            <th scope="row">{total.currency}</th>
            <td className="data-table__number">{number.format(total.count)}</td>
            <td className="data-table__number">{formatMoney(total.grossMinor, total.currency, language)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
