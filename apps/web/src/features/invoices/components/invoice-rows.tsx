import { INVOICE_LIMITS, type InvoiceBody, type Language, type TaxRate, UNITS } from '@portal/contracts';
import { rowNetMinor } from '@portal/domain/invoice-totals';
import { type Control, type FieldArrayWithId, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormCheckbox } from '../../../components/ui/form-fields';
import { DataTable } from '../../../components/ui/list-results';
import { formatMoney } from '../../../lib/money';
import { type InvoiceFormRow, type InvoiceFormValues, rowInput } from '../utils/invoice-form';
import { UNIT_KEYS } from '../utils/labels';
import { RemoveRowCell, SelectCell, TextCell, vatRateOptions } from './form-cells';

/** A row's net as typed (quantity × price, rounded once, as the server rounds it); a dash until readable. */
function RowNet({
  control,
  index,
  currency,
  language,
}: {
  control: Control<InvoiceFormValues, unknown, InvoiceBody>;
  index: number;
  currency: string;
  language: Language;
}) {
  const row = useWatch({ control, name: `rows.${index}` });
  const input = row ? rowInput(row, language) : null;
  let net: number | null = null;
  try {
    net = input ? rowNetMinor(input.quantity, input.unitPriceMinor) : null;
  } catch {
    // Beyond the safe integer range: the totals say so; the row shows a dash.
  }
  return <>{net === null ? '–' : formatMoney(net, currency, language)}</>;
}

export interface InvoiceRowsProps {
  control: Control<InvoiceFormValues, unknown, InvoiceBody>;
  fields: FieldArrayWithId<InvoiceFormValues, 'rows', 'id'>[];
  onRemove: (index: number) => void;
  taxRates: readonly TaxRate[];
  currency: string;
  language: Language;
  /** The "labour (ROT/RUT)" column, shown while the invoice has a deduction. */
  showLabour: boolean;
}

/**
 * The rows of the invoice form as a table: article number, name and description, quantity (to
 * thousandths), unit, price, VAT rate, the labour mark for ROT/RUT and the row's net. Every input
 * carries its column and row number as its name, since a cell has no visible label. On a phone each
 * row is a card (issue #17): the cells' data-label is shown above each field there, as its label.
 */
export function InvoiceRows({
  control,
  fields,
  onRemove,
  taxRates,
  currency,
  language,
  showLabour,
}: InvoiceRowsProps) {
  const { t } = useTranslation();
  const unitOptions = UNITS.map((unit) => ({ value: unit, label: t(UNIT_KEYS[unit]) }));
  const vatOptions = vatRateOptions(taxRates, language);
  return (
    <DataTable
      caption={t('invoices:form.rows.title')}
      className="invoice-rows"
      columns={[
        { label: t('invoices:form.rows.article_number'), className: 'invoice-rows__number' },
        { label: t('invoices:form.rows.name'), className: 'invoice-rows__name' },
        { label: t('invoices:form.rows.quantity'), className: 'invoice-rows__quantity' },
        { label: t('invoices:form.rows.unit'), className: 'invoice-rows__unit' },
        { label: t('invoices:form.rows.price'), className: 'invoice-rows__price' },
        { label: t('invoices:form.rows.vat'), className: 'invoice-rows__vat' },
        showLabour && { label: t('invoices:form.rows.labour'), className: 'invoice-rows__labour' },
        { label: t('invoices:form.rows.amount'), className: 'invoice-rows__amount' },
        {
          label: <span className="visually-hidden">{t('invoices:form.rows.actions')}</span>,
          className: 'invoice-rows__remove',
        },
      ]}
    >
      <tbody>
        {fields.map((field, index) => {
          const row = index + 1;
          // A cell's field in this row, and its accessible name ("Quantity, row 2").
          const cell = (name: keyof InvoiceFormRow, label: string) => ({
            control,
            name: `rows.${index}.${name}` as const,
            label,
          });
          return (
            <tr key={field.id}>
              <td data-label={t('invoices:form.rows.article_number')}>
                <TextCell
                  {...cell('articleNumber', t('invoices:form.rows.article_number_row', { row }))}
                  limit={INVOICE_LIMITS.articleNumber}
                />
              </td>
              <td data-label={t('invoices:form.rows.name')}>
                <TextCell
                  {...cell('name', t('invoices:form.rows.name_row', { row }))}
                  limit={INVOICE_LIMITS.rowName}
                />
                <TextCell
                  {...cell('description', t('invoices:form.rows.description_row', { row }))}
                  className="invoice-rows__description"
                  placeholder={t('invoices:form.rows.description_placeholder')}
                  limit={INVOICE_LIMITS.rowDescription}
                />
              </td>
              <td data-label={t('invoices:form.rows.quantity')}>
                <TextCell {...cell('quantity', t('invoices:form.rows.quantity_row', { row }))} numeric />
              </td>
              <td data-label={t('invoices:form.rows.unit')}>
                <SelectCell
                  {...cell('unit', t('invoices:form.rows.unit_row', { row }))}
                  options={unitOptions}
                />
              </td>
              <td data-label={t('invoices:form.rows.price')}>
                <TextCell {...cell('price', t('invoices:form.rows.price_row', { row }))} numeric />
              </td>
              <td data-label={t('invoices:form.rows.vat')}>
                <SelectCell
                  {...cell('vatBasisPoints', t('invoices:form.rows.vat_row', { row }))}
                  options={vatOptions}
                />
              </td>
              {showLabour && (
                <td className="invoice-rows__labour" data-label={t('invoices:form.rows.labour')}>
                  <FormCheckbox {...cell('rotRut', t('invoices:form.rows.labour_row', { row }))} />
                </td>
              )}
              <td className="invoice-rows__amount" data-label={t('invoices:form.rows.amount')}>
                <RowNet control={control} index={index} currency={currency} language={language} />
              </td>
              <RemoveRowCell
                label={t('invoices:form.rows.remove_row', { row })}
                disabled={fields.length <= 1}
                onRemove={() => onRemove(index)}
              />
            </tr>
          );
        })}
      </tbody>
    </DataTable>
  );
}
