import type { InvoiceDetail, Self } from '@portal/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageSpinner } from '../../../components/ui/load-states';
import { paths } from '../../../config/paths';
import { toIsoDate } from '../../../lib/format';
import { useNextInvoiceNumber } from '../api/get-next-invoice-number';
import { blankUploadForm } from '../utils/invoice-upload-form';
import type { InvoiceNotice } from './invoice-form-screen';
import { InvoiceUploadForm } from './invoice-upload-form';
import type { InvoicePickers } from './pickers';
import '../texts';

export interface InvoiceUploadScreenProps extends Pick<InvoicePickers, 'RecipientPicker'> {
  self: Self;
}

/**
 * `/invoice/upload`: starts the upload form with the suggested next number and the issuer's first
 * currency and VAT rate; after saving it opens the new invoice with the register form's notice.
 */
export function InvoiceUploadScreen({ self, RecipientPicker }: InvoiceUploadScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = useMemo(() => toIsoDate(new Date()), []);
  const next = useNextInvoiceNumber();

  function body() {
    // The suggestion is a help: if it cannot be loaded, the user types a number.
    if (next.isPending) {
      return <PageSpinner />;
    }
    const onSaved = (saved: InvoiceDetail) => {
      const notice: InvoiceNotice = 'registered';
      void navigate(paths.invoiceDetail.getHref(saved.invoiceID), { state: { notice } });
    };
    return (
      <InvoiceUploadForm
        defaultValues={blankUploadForm({
          today,
          currency: self.currencies[0] ?? 'SEK',
          vatBasisPoints: self.taxRates[0]?.rateBasisPoints,
          invoiceNumber: next.data?.invoiceNumber ?? '',
        })}
        taxRates={self.taxRates}
        currencies={self.currencies}
        RecipientPicker={RecipientPicker}
        onSaved={onSaved}
        onCancel={() => void navigate(paths.home.getHref())}
      />
    );
  }

  return (
    <div className="invoice-page">
      <h1 className="page__title">{t('invoices:upload.title')}</h1>
      <p className="page__lead">{t('invoices:upload.lead')}</p>
      {body()}
    </div>
  );
}
