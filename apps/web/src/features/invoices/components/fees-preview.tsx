import type { Language } from '@portal/contracts';
import { reportsTexts } from '@portal/i18n/namespaces/reports';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../../components/ui/load-states';
import { MoneyCells } from '../../../components/ui/money-cells';
import { TableHead } from '../../../components/ui/sortable-header';
import { addTexts } from '../../../lib/i18n';
import { useFeesPreview } from '../api/preview-fees';

addTexts('reports', reportsTexts);

/**
 * Before sending: what the chosen invoices cost in fees and what we pay out for them, per currency,
 * as the payout run will compute it.
 */
export function FeesPreview({ invoiceIDs, language }: { invoiceIDs: readonly string[]; language: Language }) {
  const { t } = useTranslation();
  const preview = useFeesPreview(invoiceIDs);
  if (invoiceIDs.length === 0) return null;
  if (preview.isError) return <ErrorNotice error={preview.error} />;
  const totals = preview.data?.totals ?? [];
  return (
    <table className="currency-totals fees-preview" aria-busy={preview.isFetching}>
      <caption>{t('reports:fees.title')}</caption>
      <TableHead
        columns={[
          { label: t('invoices:totals.currency'), className: 'currency-totals__heading' },
          { label: t('reports:fees.gross'), numeric: true, className: 'currency-totals__heading' },
          { label: t('reports:fees.fee'), numeric: true, className: 'currency-totals__heading' },
          { label: t('reports:fees.net'), numeric: true, className: 'currency-totals__heading' },
        ]}
      />
      <tbody>
        {totals.map((total) => (
          <tr key={total.currency}>
            <th scope="row">{total.currency}</th>
            <MoneyCells
              amounts={[total.grossMinor, total.feeMinor, total.netMinor]}
              currency={total.currency}
              language={language}
            />
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4} className="fees-preview__note">
            {t('reports:fees.financedNote')}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
