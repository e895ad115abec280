import type { Installment, Language } from '@portal/contracts';
import type { InstallmentRow } from '@portal/domain/installment-schedule';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../../components/ui/list-results';
import { TableHead } from '../../../components/ui/sortable-header';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';
import { invoiceStateKey } from '../utils/labels';

export interface ScheduleTableProps {
  /** The schedule's rows: computed live in the form, or the stored plan's with their invoices. */
  rows: readonly (InstallmentRow | Installment)[];
  totals: { principalMinor: number; feesMinor: number; totalMinor: number };
  currency: string;
  language: Language;
  /** Show each installment's invoice (the stored plan's page). */
  withInvoices?: boolean;
}

function hasInvoice(row: InstallmentRow | Installment): row is Installment {
  return 'invoiceID' in row;
}

/**
 * A plan's payment schedule: each installment's due date, principal, fees and amount, with their
 * totals; on a stored plan also each installment's invoice and its state once it is invoiced.
 */
export function ScheduleTable({
  rows,
  totals,
  currency,
  language,
  withInvoices = false,
}: ScheduleTableProps) {
  const { t } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, language);
  return (
    <DataTable caption={t('installments:schedule.caption')} className="data-table schedule-table">
      <TableHead
        columns={[
          { label: t('installments:schedule.columns.number'), numeric: true },
          { label: t('installments:schedule.columns.due_date') },
          { label: t('installments:schedule.columns.principal'), numeric: true },
          { label: t('installments:schedule.columns.fees'), numeric: true },
          { label: t('installments:schedule.columns.amount'), numeric: true },
          { label: t('installments:schedule.columns.remaining_principal'), numeric: true },
          withInvoices && { label: t('installments:schedule.columns.invoice') },
        ]}
      />
      <tbody>
        {rows.map((row) => (
          <tr key={row.number}>
            <td className="data-table__number">{row.number}</td>
            <td>{formatDate(row.dueDate, language)}</td>
            <td className="data-table__number">{money(row.principalMinor)}</td>
            <td className="data-table__number">{money(row.feeMinor)}</td>
            <td className="data-table__number">{money(row.amountMinor)}</td>
            <td className="data-table__number">{money(row.remainingPrincipalMinor)}</td>
            {withInvoices && (
              <td>
                {hasInvoice(row) && row.invoiceID ? (
                  <>
                    <Link to={paths.invoiceDetail.getHref(row.invoiceID)}>
                      {t('installments:detail.open_invoice', { number: row.number })}
                    </Link>{' '}
                    {row.invoiceState !== null && (
                      <span className="state-badge state-badge--neutral">
                        {t(invoiceStateKey(row.invoiceState))}
                      </span>
                    )}
                  </>
                ) : (
                  <span className="muted">{t('installments:detail.not_invoiced')}</span>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            {t('installments:schedule.total')}
          </th>
          <td className="data-table__number">{money(totals.principalMinor)}</td>
          <td className="data-table__number">{money(totals.feesMinor)}</td>
          <td className="data-table__number">{money(totals.totalMinor)}</td>
          <td />
          {withInvoices && <td />}
        </tr>
      </tfoot>
    </DataTable>
  );
}
