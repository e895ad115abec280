import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { paths } from '../../config/paths';
import { BusinessInvoicesPage } from '../../features/fortnox/components/business-invoices-page';
import { SendPendingDialog } from '../../features/invoices/components/send-pending-dialog';
import { toLanguage } from '../../lib/i18n';
import { useSelf } from '../../lib/self';

/**
 * `/invoice/send-business` (spec §1, §2): shown only to a user with a fortnoxSetting. The Fortnox
 * feature lists and takes over the invoices; the invoices feature's confirmation sends them, exactly
 * as on `/invoice/send`.
 */
export default function InvoiceSendBusinessRoute() {
  const { data } = useSelf();
  const { i18n } = useTranslation();
  if (!data) return null;
  if (data.fortnoxSetting === null) return <Navigate to={paths.forbidden.getHref()} replace />;
  return (
    <BusinessInvoicesPage
      renderSend={({ invoices, onSent, onHide }) => (
        <SendPendingDialog
          invoices={invoices}
          language={toLanguage(i18n.language)}
          onSent={onSent}
          onHide={onHide}
        />
      )}
    />
  );
}
