import {
  type InvoiceDetail,
  type Language,
  OWN_OCR_MAX_INPUT,
  type TaxRate,
  type UploadInvoiceBody,
} from '@portal/contracts';
import { useMemo, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldPath,
  type UseFieldArrayReturn,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormTextField } from '../../../components/ui/form-fields';
import { PlusIcon } from '../../../components/ui/icons';
import { trackFormSubmit } from '../../../lib/analytics';
import { toLanguage } from '../../../lib/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { translateCode } from '../../../lib/messages';
import { useUploadInvoice } from '../api/upload-invoice';
import {
  emptyAmountLine,
  type InvoiceUploadFormValues,
  invoiceUploadFormResolver,
  maxAmountLines,
  uploadFormPathOf,
  uploadLiveTotals,
} from '../utils/invoice-upload-form';
import { useInvoiceSaveFailure } from '../utils/save-failure';
import { PdfFiles } from './file-picker';
import { RemoveRowCell, SelectCell, TextCell, vatRateOptions } from './form-cells';
import { InvoiceTermsFields, termsFormOf } from './invoice-terms-fields';
import { InvoiceTotals } from './invoice-totals';
import type { InvoicePickers } from './pickers';
import '../texts';
import { TableHead } from '../../../components/ui/sortable-header';

type UploadControl = Control<InvoiceUploadFormValues, unknown, UploadInvoiceBody>;

/** The field a server issue is about; an issue of the amounts as a whole goes on their root. */
function uploadFieldOf(apiPath: string): FieldPath<InvoiceUploadFormValues> | null {
  const path = uploadFormPathOf(apiPath);
  if (path === null) return null;
  return (path === 'amounts' ? 'amounts.root' : path) as FieldPath<InvoiceUploadFormValues>;
}

export interface InvoiceUploadFormProps extends Pick<InvoicePickers, 'RecipientPicker'> {
  defaultValues: InvoiceUploadFormValues;
  taxRates: readonly TaxRate[];
  currencies: readonly string[];
  onSaved: (invoice: InvoiceDetail) => void;
  onCancel: () => void;
}

/** VAT, total and amount to pay of the typed amounts, as the server will store them. */
function UploadTotals({ control, language }: { control: UploadControl; language: Language }) {
  const { t } = useTranslation();
  const [amounts, currency] = useWatch({ control, name: ['amounts', 'currency'] });
  const totals = uploadLiveTotals(amounts, language);
  if (!totals) return <p className="field__error">{t('invoices:totals.too_large')}</p>;
  return (
    <InvoiceTotals
      currency={currency}
      language={language}
      figures={{
        netMinor: totals.netMinor,
        vat: totals.vatByRate,
        grossMinor: totals.grossMinor,
        deductionMinor: 0,
        deductionType: null,
        toPayMinor: totals.toPayMinor,
      }}
    />
  );
}

/** The amount excl. VAT and the VAT rate of each rate on the customer's invoice. */
function AmountLines({
  control,
  lines,
  taxRates,
  language,
}: {
  control: UploadControl;
  lines: UseFieldArrayReturn<InvoiceUploadFormValues, 'amounts'>;
  taxRates: readonly TaxRate[];
  language: Language;
}) {
  const { t } = useTranslation();
  const vatOptions = vatRateOptions(taxRates, language);
  const chosen = useWatch({ control, name: 'amounts' });
  const unused = taxRates.find(
    (r) => !chosen.some((line) => line.vatBasisPoints === String(r.rateBasisPoints)),
  );
  return (
    <>
      <table className="invoice-rows upload-amounts">
        <caption className="visually-hidden">{t('invoices:upload.amounts_title')}</caption>
        <TableHead
          columns={[
            { label: t('invoices:upload.net'), className: 'invoice-rows__price' },
            { label: t('invoices:upload.vat'), className: 'invoice-rows__vat' },
            {
              label: <span className="visually-hidden">{t('invoices:form.rows.actions')}</span>,
              className: 'invoice-rows__remove',
            },
          ]}
        />
        <tbody>
          {lines.fields.map((field, index) => {
            const row = index + 1;
            return (
              <tr key={field.id}>
                <td>
                  <TextCell
                    control={control}
                    name={`amounts.${index}.net`}
                    label={t('invoices:upload.net_line', { row })}
                    numeric
                  />
                </td>
                <td>
                  <SelectCell
                    control={control}
                    name={`amounts.${index}.vatBasisPoints`}
                    label={t('invoices:upload.vat_line', { row })}
                    options={vatOptions}
                  />
                </td>
                <RemoveRowCell
                  label={t('invoices:upload.remove_line', { row })}
                  disabled={lines.fields.length <= 1}
                  onRemove={() => lines.remove(index)}
                />
              </tr>
            );
          })}
        </tbody>
      </table>
      <Button
        variant="secondary"
        leadingIcon={PlusIcon}
        label={t('invoices:upload.add_rate')}
        disabled={lines.fields.length >= maxAmountLines(taxRates.length)}
        onClick={() => lines.append(emptyAmountLine(unused?.rateBasisPoints))}
      />
    </>
  );
}

/**
 * `/invoice/upload`: the customer's own invoice PDF (required: `files.required` before anything is
 * sent), the register form's recipient and terms, an optional own OCR reference and the amounts excl.
 * VAT per rate as written on the PDF, with the VAT and total the server will store shown live. One
 * Idempotency-Key per form, so a double click or a retry registers once.
 */
export function InvoiceUploadForm({
  defaultValues,
  taxRates,
  currencies,
  RecipientPicker,
  onSaved,
  onCancel,
}: InvoiceUploadFormProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const resolver = useMemo(() => invoiceUploadFormResolver(language), [language]);
  const { control, handleSubmit, setValue, getValues, setError, formState } = useForm<
    InvoiceUploadFormValues,
    unknown,
    UploadInvoiceBody
  >({ resolver, defaultValues });
  const lines = useFieldArray({ control, name: 'amounts' });
  const [idempotencyKey] = useState(newIdempotencyKey);
  const upload = useUploadInvoice();
  const { failure, setFailure, duplicate, showServerError, clear } = useInvoiceSaveFailure(
    setError,
    uploadFieldOf,
    language,
  );
  // "Check the fields marked in red" stays only while a field is still marked.
  const [fieldsInvalid, setFieldsInvalid] = useState(false);

  const submit = handleSubmit(
    (body) => {
      clear();
      setFieldsInvalid(false);
      trackFormSubmit('invoice_upload', Object.keys(body));
      upload.mutate({ body, idempotencyKey }, { onSuccess: onSaved, onError: showServerError });
    },
    () => {
      setFailure(null);
      setFieldsInvalid(true);
    },
  );
  const hasFieldErrors = Object.keys(formState.errors).length > 0;

  const amountsError = formState.errors.amounts?.root?.message ?? formState.errors.amounts?.message;

  return (
    <form className="invoice-form stack" noValidate onSubmit={submit} aria-label={t('invoices:upload.label')}>
      <Card header={t('invoices:upload.file_section')}>
        <Controller
          control={control}
          name="invoiceFile"
          render={({ field, fieldState }) => (
            <PdfFiles
              fileRole="invoice"
              label={t('invoices:upload.file')}
              files={field.value ? [field.value] : []}
              onChange={(files) => {
                field.onChange(files[0] ?? null);
                field.onBlur();
              }}
              max={1}
              error={fieldState.error?.message}
            />
          )}
        />
      </Card>

      <Card header={t('invoices:form.sections.terms')}>
        <InvoiceTermsFields
          form={termsFormOf({ control, getValues, setValue })}
          currencies={currencies}
          revalidate={formState.isSubmitted}
          showNumberHint
          duplicate={duplicate}
          RecipientPicker={RecipientPicker}
        >
          <FormTextField
            control={control}
            name="ocr"
            label={t('invoices:upload.ocr')}
            hint={t('invoices:upload.ocr_hint')}
            inputMode="numeric"
            autoComplete="off"
            limit={OWN_OCR_MAX_INPUT}
          />
        </InvoiceTermsFields>
      </Card>

      <div className="invoice-form__bottom">
        <Card header={t('invoices:upload.amounts_title')}>
          <p className="muted">{t('invoices:upload.amounts_hint')}</p>
          <AmountLines control={control} lines={lines} taxRates={taxRates} language={language} />
          {amountsError && (
            <p className="field__error" role="alert">
              {translateCode(t, amountsError)}
            </p>
          )}
        </Card>
        <Card header={t('invoices:totals.title')} className="invoice-form__totals">
          <UploadTotals control={control} language={language} />
        </Card>
      </div>

      {(failure ?? (fieldsInvalid && hasFieldErrors)) && (
        <p className="notice notice--error" role="alert">
          {failure ?? t('invoices:form.errors.check_fields')}
        </p>
      )}
      <div className="button-row invoice-form__actions">
        <Button variant="secondary" label={t('common:actions.cancel')} onClick={onCancel} />
        <Button type="submit" loading={upload.isPending} label={t('invoices:form.register')} />
      </div>
    </form>
  );
}
