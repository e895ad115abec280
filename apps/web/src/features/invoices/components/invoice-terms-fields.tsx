import { INVOICE_LIMITS, SERVICE_TYPES } from '@portal/contracts';
import type { ReactNode } from 'react';
import type { Control, UseFormGetValues, UseFormSetValue } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormCountField } from '../../../components/ui/form-count-field';
import { FormDateField } from '../../../components/ui/form-date-field';
import { FormSelectField, FormTextField } from '../../../components/ui/form-fields';
import { useRecipientField } from '../../../components/ui/recipient-field';
import { dueDateFor, type InvoiceTermsValues, paymentTermsFor } from '../utils/invoice-form';
import { SERVICE_KEYS } from '../utils/labels';
import type { InvoicePickers } from './pickers';

/** The parts of a react-hook-form form the terms fields work with. */
export interface TermsForm {
  control: Control<InvoiceTermsValues>;
  getValues: UseFormGetValues<InvoiceTermsValues>;
  setValue: UseFormSetValue<InvoiceTermsValues>;
}

/**
 * The terms part of a form whose values extend `InvoiceTermsValues` (the register form, the upload).
 * react-hook-form's types are invariant in the values, so the narrowing is a cast; the fields it
 * names exist with these types in every such form.
 */
export function termsFormOf<V extends InvoiceTermsValues, B>(form: {
  control: Control<V, unknown, B>;
  getValues: UseFormGetValues<V>;
  setValue: UseFormSetValue<V>;
}): TermsForm {
  return form as unknown as TermsForm;
}

export interface InvoiceTermsFieldsProps extends Pick<InvoicePickers, 'RecipientPicker'> {
  form: TermsForm;
  currencies: readonly string[];
  /** Re-check the due date when the invoice date or terms move it (once the form was submitted). */
  revalidate: boolean;
  /** Say that the number is a suggestion (a new invoice). */
  showNumberHint: boolean;
  /** The placeholders of the duplicate-number error, when the server gave them. */
  duplicate: { amount: string; recipient: string; date: string } | null;
  /** Fields of the form's own after the terms (the upload's own OCR reference). */
  children?: ReactNode;
}

/** The free-text references under the dates: the order reference and both sides' contacts. */
const REFERENCE_FIELDS = [
  {
    name: 'orderReference',
    label: 'invoices:form.order_reference',
    autoComplete: 'off',
    limit: INVOICE_LIMITS.orderReference,
  },
  {
    name: 'issuerContact',
    label: 'invoices:form.issuer_contact',
    autoComplete: 'name',
    limit: INVOICE_LIMITS.contact,
  },
  {
    name: 'recipientContact',
    label: 'invoices:form.recipient_contact',
    autoComplete: 'off',
    limit: INVOICE_LIMITS.contact,
  },
] as const;

/**
 * The recipient (with the recipients feature's picker and its inline create), service, number,
 * currency, invoice date, payment terms and due date (each moving the other), references and
 * contacts of an invoice: the same fields in `/invoice/register` and `/invoice/upload`.
 */
export function InvoiceTermsFields({
  form,
  currencies,
  revalidate,
  showNumberHint,
  duplicate,
  RecipientPicker,
  children,
}: InvoiceTermsFieldsProps) {
  const { t } = useTranslation();
  const { control, getValues, setValue } = form;
  const recipient = useRecipientField({ control, name: 'recipient' });
  const currencyOptions = currencies.map((c) => ({ value: c, label: c }));
  const serviceOptions = SERVICE_TYPES.map((s) => ({ value: s, label: t(SERVICE_KEYS[s]) }));
  /** A new invoice date or new terms move the due date (when both make one). */
  function followDueDate(invoiceDate: string, paymentTermsDays: string) {
    const due = dueDateFor(invoiceDate, paymentTermsDays);
    if (due) setValue('dueDate', due, { shouldValidate: revalidate });
  }
  /** The service and the currency: a required choice among the given options. */
  function requiredSelect(
    name: 'service' | 'currency',
    label: `invoices:form.${'service' | 'currency'}`,
    options: { value: string; label: string }[],
  ) {
    return <FormSelectField control={control} name={name} label={t(label)} required options={options} />;
  }
  return (
    <div className="invoice-form__grid">
      <div className="invoice-form__recipient">
        <RecipientPicker
          {...recipient}
          label={t('invoices:form.recipient')}
          hint={t('invoices:form.recipient_hint')}
          required
        />
      </div>
      {requiredSelect('service', 'invoices:form.service', serviceOptions)}
      <FormTextField
        control={control}
        name="invoiceNumber"
        label={t('invoices:form.invoice_number')}
        hint={showNumberHint ? t('invoices:form.invoice_number_hint') : undefined}
        required
        autoComplete="off"
        errorOf={(code) =>
          code === 'invoices.duplicate_number' && !duplicate ? 'invoices:form.errors.duplicate_plain' : code
        }
        errorParams={duplicate ?? undefined}
        limit={INVOICE_LIMITS.invoiceNumber}
      />
      {requiredSelect('currency', 'invoices:form.currency', currencyOptions)}
      <FormDateField
        control={control}
        name="invoiceDate"
        label={t('invoices:form.invoice_date')}
        required
        onValueChange={(next) => followDueDate(next, getValues('paymentTermsDays'))}
      />
      <FormCountField
        control={control}
        name="paymentTermsDays"
        label={t('invoices:form.payment_terms')}
        min={0}
        max={3650}
        // The terms only move the due date (a free string in the schema); the due date shows the error.
        errorOf={() => undefined}
        onValueChange={(next) => followDueDate(getValues('invoiceDate'), next)}
      />
      <FormDateField
        control={control}
        name="dueDate"
        label={t('invoices:form.due_date')}
        required
        onValueChange={(next) => {
          const terms = paymentTermsFor(getValues('invoiceDate'), next);
          if (terms !== null) setValue('paymentTermsDays', terms);
        }}
      />
      {REFERENCE_FIELDS.map(({ name, label, autoComplete, limit }) => (
        <FormTextField
          key={name}
          control={control}
          name={name}
          label={t(label)}
          autoComplete={autoComplete}
          limit={limit}
        />
      ))}
      {children}
    </div>
  );
}
