import type { Language } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { formatBasisPoints } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';

export interface TotalsFigures {
  netMinor: number;
  vat: readonly { vatBasisPoints: number; vatMinor: number }[];
  grossMinor: number;
  deductionMinor: number;
  /** `rot` or `rut` when the invoice has a deduction. */
  deductionType: 'rot' | 'rut' | null;
  /** The deduction's percentage in basis points, when known. */
  deductionRateBasisPoints?: number | null | undefined;
  toPayMinor: number;
}

/** Net, VAT per rate, total, the ROT/RUT deduction and the amount to pay, in the invoice's currency. */
export function InvoiceTotals({
  figures,
  currency,
  language,
}: {
  figures: TotalsFigures;
  currency: string;
  language: Language;
}) {
  const { t } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, language);
  const hasDeduction = figures.deductionType !== null && figures.deductionMinor !== 0;
  return (
    <dl className="invoice-totals">
      <div className="invoice-totals__line">
        <dt>{t('invoices:totals.net')}</dt>
        <dd>{money(figures.netMinor)}</dd>
      </div>
      {figures.vat.map((line) => (
        <div className="invoice-totals__line" key={line.vatBasisPoints}>
          <dt>{t('invoices:totals.vat_rate', { rate: formatBasisPoints(line.vatBasisPoints, language) })}</dt>
          <dd>{money(line.vatMinor)}</dd>
        </div>
      ))}
      <div className="invoice-totals__line invoice-totals__line--strong">
        <dt>{t('invoices:totals.gross')}</dt>
        <dd>{money(figures.grossMinor)}</dd>
      </div>
      {hasDeduction && (
        <div className="invoice-totals__line">
          <dt>
            {figures.deductionType === 'rot'
              ? t('invoices:totals.deduction_rot')
              : t('invoices:totals.deduction_rut')}
            {figures.deductionRateBasisPoints
              ? ` (${formatBasisPoints(figures.deductionRateBasisPoints, language)})`
              : ''}
          </dt>
          <dd>{money(-figures.deductionMinor)}</dd>
        </div>
      )}
      <div className="invoice-totals__line invoice-totals__line--total">
        <dt>{t('invoices:totals.to_pay')}</dt>
        <dd data-testid="invoice-to-pay">{money(figures.toPayMinor)}</dd>
      </div>
    </dl>
  );
}
