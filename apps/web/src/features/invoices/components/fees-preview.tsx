import type { Language } from '@portal/contracts';
import { reportsTexts } from '@portal/i18n/namespaces/reports';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../../components/ui/load-states';
import { MoneyCells } from '../../../components/ui/money-cells';
import { addTexts } from '../../../lib/i18n';
import { useFeesPreview } from '../api/preview-fees';
import { PerCurrencyTable } from './currency-totals';

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
  return (
    <PerCurrencyTable
      caption={t('reports:fees.title')}
      className="fees-preview"
      busy={preview.isFetching}
      headings={[t('reports:fees.gross'), t('reports:fees.fee'), t('reports:fees.net')]}
      rows={preview.data?.totals ?? []}
      cells={(total) => (
        <MoneyCells
          amounts={[total.grossMinor, total.feeMinor, total.netMinor]}
          currency={total.currency}
          language={language}
        />
      )}
    >
      <tfoot>
        <tr>
          <td colSpan={4} className="fees-preview__note">
            {t('reports:fees.financedNote')}
          </td>
        </tr>
      </tfoot>
    </PerCurrencyTable>
  );
}
