import {
  type Article,
  FILE_MAX_ATTACHMENTS,
  type InvoiceBody,
  type InvoiceDetail,
  QUANTITY_SCALE,
  type TaxRate,
} from '@portal/contracts';
import { formatAmount } from '@portal/domain/money';
import { formatQuantity } from '@portal/domain/quantity';
import { isRotRutAvailable } from '@portal/domain/rot-rut';
import { useMemo, useState } from 'react';
import { type Control, type FieldPath, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PlusIcon } from '../../../components/ui/icons';
import { ErrorNotice } from '../../../components/ui/load-states';
import { trackFormSubmit } from '../../../lib/analytics';
import { toLanguage } from '../../../lib/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { translateCode } from '../../../lib/messages';
import { useCreateInvoice } from '../api/create-invoice';
import { useUpdateInvoice } from '../api/update-invoice';
import type { InvoiceFile } from '../api/upload-file';
import {
  emptyRow,
  formPathOf,
  type InvoiceFormContext,
  type InvoiceFormRow,
  type InvoiceFormValues,
  invoiceFormResolver,
  isBlankRow,
  liveTotals,
} from '../utils/invoice-form';
import { useInvoiceSaveFailure } from '../utils/save-failure';
import { PdfFiles } from './file-picker';
import { InvoiceRows } from './invoice-rows';
import { InvoiceTermsFields, termsFormOf } from './invoice-terms-fields';
import { InvoiceTotals } from './invoice-totals';
import type { InvoicePickers } from './pickers';
import { RotRutFields } from './rot-rut-fields';
import '../texts';

export type InvoiceFormMode = 'register' | 'edit' | 'duplicate';

export interface InvoiceFormProps extends InvoicePickers {
  mode: InvoiceFormMode;
  /** The invoice being edited (edit mode). */
  invoiceID?: string;
  defaultValues: InvoiceFormValues;
  taxRates: readonly TaxRate[];
  currencies: readonly string[];
  issuerCountry: 'SE' | 'FI';
  /** The files the invoice already has (edit mode): attachments stay listed, its own PDF is kept. */
  files?: readonly InvoiceFile[];
  onSaved: (invoice: InvoiceDetail) => void;
  onCancel: () => void;
}

/** The field a server issue is about; an issue of the rows as a whole goes on the rows' root. */
function formFieldOf(apiPath: string): FieldPath<InvoiceFormValues> | null {
  const path = formPathOf(apiPath);
  if (path === null) return null;
  return (path === 'rows' ? 'rows.root' : path) as FieldPath<InvoiceFormValues>;
}

/** The totals as the form stands: `computeInvoiceTotals`, as the server will store them. */
function LiveTotals({
  control,
  context,
}: {
  control: Control<InvoiceFormValues, unknown, InvoiceBody>;
  context: InvoiceFormContext;
}) {
  const { t } = useTranslation();
  const values = useWatch({ control }) as InvoiceFormValues;
  const live = liveTotals(values, context);
  if (!live) return <p className="field__error">{t('invoices:totals.too_large')}</p>;
  return (
    <InvoiceTotals
      currency={values.currency}
      language={context.language}
      figures={{
        netMinor: live.totals.netMinor,
        vat: live.totals.vatByRate,
        grossMinor: live.totals.grossMinor,
        deductionMinor: live.totals.taxReductionMinor,
        deductionType: live.totals.taxReduction?.type ?? null,
        deductionRateBasisPoints: live.totals.taxReduction?.rateBasisPoints,
        toPayMinor: live.totals.toPayMinor,
      }}
    />
  );
}

/**
 * The invoice form of `/invoice/register`, `/invoice/edit/:id` and `/invoices/duplicate/:id`: the
 * contract's rules through react-hook-form, typed amounts read exactly, live totals from the same
 * domain function the server stores them with, and the server's field issues shown on the fields.
 * Registering sends one Idempotency-Key per form, so a double click or a retry registers once.
 */
export function InvoiceForm({
  mode,
  invoiceID,
  defaultValues,
  taxRates,
  currencies,
  issuerCountry,
  RecipientPicker,
  ArticlePicker,
  files = [],
  onSaved,
  onCancel,
}: InvoiceFormProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const context = useMemo<InvoiceFormContext>(() => ({ language, issuerCountry }), [language, issuerCountry]);
  const resolver = useMemo(() => invoiceFormResolver(context), [context]);
  const { control, handleSubmit, setValue, getValues, setError, formState } = useForm<
    InvoiceFormValues,
    unknown,
    InvoiceBody
  >({ resolver, defaultValues });
  const rows = useFieldArray({ control, name: 'rows' });
  const [idempotencyKey] = useState(newIdempotencyKey);
  const create = useCreateInvoice();
  const update = useUpdateInvoice();
  const { failure, setFailure, duplicate, showServerError, clear } = useInvoiceSaveFailure(
    setError,
    formFieldOf,
    language,
  );
  const [attachments, setAttachments] = useState<InvoiceFile[]>(() =>
    files.filter((f) => f.role === 'attachment'),
  );
  // An edit keeps the invoice's own PDF (`/invoice/upload`); without it the server would release it.
  const [invoiceFileID] = useState(() => files.find((f) => f.role === 'invoice')?.fileID ?? null);

  // Only what changes the layout is watched here; the totals and row amounts watch for themselves, so a
  // keystroke re-renders them and not the whole form.
  const [currency, rotRutType] = useWatch({ control, name: ['currency', 'rotRut.type'] });
  const hasRotRut = isRotRutAvailable(issuerCountry, currency);
  const defaultVat = taxRates[0]?.rateBasisPoints;
  const saving = create.isPending || update.isPending;

  const submit = handleSubmit(
    (values) => {
      const body: InvoiceBody = {
        ...values,
        attachmentIDs: attachments.map((f) => f.fileID),
        invoiceFileID,
      };
      clear();
      trackFormSubmit(mode === 'edit' ? 'invoice_edit' : 'invoice_register', Object.keys(body));
      const callbacks = { onSuccess: onSaved, onError: showServerError };
      if (mode === 'edit' && invoiceID) update.mutate({ id: invoiceID, body }, callbacks);
      else create.mutate({ body, idempotencyKey }, callbacks);
    },
    () => setFailure(t('invoices:form.errors.check_fields')),
  );

  function addArticle(article: Article) {
    const rates = taxRates.map((r) => r.rateBasisPoints);
    const filled: InvoiceFormRow = {
      articleNumber: article.articleNumber,
      name: article.name,
      description: article.description,
      quantity: formatQuantity(QUANTITY_SCALE, language),
      unit: article.unit,
      price: formatAmount(article.priceMinor, language),
      vatBasisPoints: String(rates.includes(article.vatBasisPoints) ? article.vatBasisPoints : defaultVat),
      rotRut: false,
    };
    const current = getValues('rows');
    const last = current.length - 1;
    const lastRow = current[last];
    if (lastRow && isBlankRow(lastRow)) rows.update(last, filled);
    else rows.append(filled);
  }

  const rowsError = formState.errors.rows?.root?.message ?? formState.errors.rows?.message;

  return (
    <form className="invoice-form stack" noValidate onSubmit={submit} aria-label={t('invoices:form.label')}>
      <Card header={t('invoices:form.sections.terms')}>
        <InvoiceTermsFields
          form={termsFormOf({ control, getValues, setValue })}
          currencies={currencies}
          revalidate={formState.isSubmitted}
          showNumberHint={mode !== 'edit'}
          duplicate={duplicate}
          RecipientPicker={RecipientPicker}
        />
      </Card>

      <Card header={t('invoices:form.rows.title')}>
        {invoiceFileID ? (
          <p className="muted" data-testid="uploaded-amounts-note">
            {t('invoices:form.uploaded_amounts_note')}
          </p>
        ) : null}
        <div className="invoice-form__row-tools">
          <ArticlePicker
            label={t('invoices:form.rows.article_search')}
            hint={t('invoices:form.rows.article_search_hint')}
            noMatchesText={t('invoices:form.rows.no_articles')}
            onPick={addArticle}
          />
          <Button
            variant="secondary"
            leadingIcon={PlusIcon}
            label={t('invoices:form.rows.add')}
            onClick={() => rows.append(emptyRow(defaultVat))}
          />
        </div>
        <InvoiceRows
          control={control}
          fields={rows.fields}
          onRemove={rows.remove}
          taxRates={taxRates}
          currency={currency}
          language={language}
          showLabour={hasRotRut && rotRutType !== 'none'}
        />
        {rowsError && (
          <p className="field__error" role="alert">
            {translateCode(t, rowsError)}
          </p>
        )}
      </Card>

      <Card header={t('invoices:files.title')}>
        <PdfFiles
          fileRole="attachment"
          label={t('invoices:files.attachments')}
          files={attachments}
          onChange={setAttachments}
          max={FILE_MAX_ATTACHMENTS}
        />
      </Card>

      <div className="invoice-form__bottom">
        {hasRotRut ? (
          <Card header={t('invoices:rot_rut.title')} className="invoice-form__rot-rut">
            <RotRutFields control={control} />
          </Card>
        ) : (
          <div />
        )}
        <Card header={t('invoices:totals.title')} className="invoice-form__totals">
          <LiveTotals control={control} context={context} />
        </Card>
      </div>

      {failure && <ErrorNotice>{failure}</ErrorNotice>}
      <div className="button-row invoice-form__actions">
        <Button variant="secondary" label={t('common:actions.cancel')} onClick={onCancel} />
        <Button
          type="submit"
          loading={saving}
          label={mode === 'edit' ? t('invoices:form.save') : t('invoices:form.register')}
        />
      </div>
    </form>
  );
}
