import type { Language, SettlementRow } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/ui/list-results';
import { MoneyCells } from '../../../components/ui/money-cells';
import { formatDate } from '../../../lib/format';

/** A row of a settlement or of a debt claim's statement; a claim's rows have the day of their posting. */
type Row = Pick<
  SettlementRow,
  'invoiceNumber' | 'recipientName' | 'kind' | 'grossMinor' | 'feeMinor' | 'netMinor'
> & {
  date?: string;
  /** The payer's reference of a `deduction` row (a settlement's; docs/MONEY.md "Deductions (TK21)"). */
  reference?: string | null;
};

/**
 * The rows of a settlement, or of a debt claim (which takes rows as a settlement does): invoice,
 * recipient, (date,) kind, gross, fee and net, and the total under them.
 */
export function RowsTable({
  caption,
  rows,
  firstPosition = 0,
  currency,
  language,
  total,
}: {
  caption: string;
  rows: readonly Row[];
  /** The first row's place in the whole list (a page's rows). */
  firstPosition?: number;
  currency: string;
  language: Language;
  total: { label: string; amounts: readonly [number, number, number] };
}) {
  const { t } = useTranslation();
  const dated = rows.some((r) => r.date !== undefined);
  const moneyCells = (amounts: readonly number[]) => (
    <MoneyCells amounts={amounts} currency={currency} language={language} />
  );
  return (
    <DataTable
      caption={caption}
      columns={[
        { label: t('reports:transferCosts.invoice') },
        { label: t('reports:transferCosts.recipient') },
        ...(dated ? [{ label: t('reports:debtClaims.date') }] : []),
        { label: t('reports:transferCosts.kind') },
        { label: t('reports:transferCosts.gross'), numeric: true },
        { label: t('reports:transferCosts.fee'), numeric: true },
        { label: t('reports:transferCosts.net'), numeric: true },
      ]}
    >
      <tbody>
        {rows
          // A row's place names it: an invoice can have two rows of a kind.
          .map((row, i) => ({ row, position: firstPosition + i }))
          .map(({ row, position }) => (
            <tr key={position}>
              <th scope="row">{row.invoiceNumber}</th>
              <td>{row.recipientName}</td>
              {dated && <td>{row.date ? formatDate(row.date, language) : ''}</td>}
              <td>
                {row.kind === 'deduction' && row.reference
                  ? t('reports:transferCosts.deductionRow', { reference: row.reference })
                  : t(`reports:transferCosts.kinds.${row.kind}`)}
              </td>
              {moneyCells([row.grossMinor, row.feeMinor, row.netMinor])}
            </tr>
          ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={dated ? 4 : 3}>
            {total.label}
          </th>
          {moneyCells(total.amounts)}
        </tr>
      </tfoot>
    </DataTable>
  );
}
