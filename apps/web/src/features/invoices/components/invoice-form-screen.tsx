import { INVOICE_STATE, type InvoiceDetail, type Self } from '@portal/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LoadFailure, PageSpinner } from '../../../components/ui/load-states';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { toIsoDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { useInvoice } from '../api/get-invoice';
import { useNextInvoiceNumber } from '../api/get-next-invoice-number';
import { blankInvoiceForm, invoiceToForm } from '../utils/invoice-form';
import { InvoiceForm, type InvoiceFormMode } from './invoice-form';
import type { InvoicePickers } from './pickers';
import '../texts';

export interface InvoiceFormScreenProps extends InvoicePickers {
  mode: InvoiceFormMode;
  /** The invoice to edit or duplicate. */
  invoiceID?: string;
  self: Self;
}

/** What the detail page says after a save: it reads this from the navigation state. */
export type InvoiceNotice = 'registered' | 'updated';

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <LoadFailure
      error={error}
      onRetry={error instanceof ApiError && error.status === 404 ? undefined : onRetry}
    />
  );
}

/**
 * `/invoice/register`, `/invoice/edit/:id` and `/invoices/duplicate/:id`: loads what the form starts
 * from (the suggested number, the invoice), refuses to edit an invoice that is no longer pending,
 * and after saving opens the invoice with a notice.
 */
export function InvoiceFormScreen({
  mode,
  invoiceID,
  self,
  RecipientPicker,
  ArticlePicker,
}: InvoiceFormScreenProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const language = toLanguage(i18n.language);
  const today = useMemo(() => toIsoDate(new Date()), []);
  const source = useInvoice(invoiceID ?? '', { enabled: mode !== 'register' && Boolean(invoiceID) });
  const next = useNextInvoiceNumber({ enabled: mode !== 'edit' });

  const title =
    mode === 'register'
      ? t('invoices:form.title_register')
      : mode === 'edit'
        ? t('invoices:form.title_edit', { number: source.data?.invoiceNumber ?? '' })
        : t('invoices:form.title_duplicate', { number: source.data?.invoiceNumber ?? '' });

  function body() {
    if (mode !== 'register') {
      if (source.isPending) return <PageSpinner />;
      if (source.isError) return <LoadError error={source.error} onRetry={() => void source.refetch()} />;
    }
    // The suggestion is a help: if it cannot be loaded, the user types a number.
    if (mode !== 'edit' && next.isPending) return <PageSpinner />;
    const invoice = source.data;
    if (mode === 'edit' && invoice && invoice.state !== INVOICE_STATE.pending) {
      return (
        <div className="notice notice--warning" role="status">
          <p>{t('invoices:form.not_editable')}</p>
          <Link to={paths.invoiceDetail.getHref(invoice.invoiceID)}>{t('invoices:form.open_invoice')}</Link>
        </div>
      );
    }
    const invoiceNumber = next.data?.invoiceNumber ?? '';
    const defaultValues =
      invoice && mode !== 'register'
        ? invoiceToForm(invoice, mode, { language, today, invoiceNumber })
        : blankInvoiceForm({
            today,
            currency: self.currencies[0] ?? 'SEK',
            vatBasisPoints: self.taxRates[0]?.rateBasisPoints,
            invoiceNumber,
          });
    const onSaved = (saved: InvoiceDetail) => {
      const notice: InvoiceNotice = mode === 'edit' ? 'updated' : 'registered';
      void navigate(paths.invoiceDetail.getHref(saved.invoiceID), { state: { notice } });
    };
    const onCancel = () =>
      void navigate(invoice ? paths.invoiceDetail.getHref(invoice.invoiceID) : paths.home.getHref());
    return (
      <InvoiceForm
        mode={mode}
        invoiceID={invoice?.invoiceID}
        defaultValues={defaultValues}
        taxRates={self.taxRates}
        currencies={self.currencies}
        issuerCountry={self.issuer.country}
        RecipientPicker={RecipientPicker}
        ArticlePicker={ArticlePicker}
        files={mode === 'edit' ? invoice?.files : undefined}
        onSaved={onSaved}
        onCancel={onCancel}
      />
    );
  }

  return (
    <div className="invoice-page">
      <h1 className="page__title">{title}</h1>
      {mode === 'register' && <p className="page__lead">{t('invoices:form.lead')}</p>}
      {body()}
    </div>
  );
}
