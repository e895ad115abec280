import { useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { invoiceIDOf, MessagesPage } from '../../features/invoices/components/messages-page';
import { useSelf } from '../../lib/self';

/** `/invoice/messages` with the optional `?invoiceID=` of spec §2. */
export default function InvoiceMessagesRoute() {
  const [params] = useSearchParams();
  const invoiceID = invoiceIDOf(params.get('invoiceID'));
  const { data } = useSelf();
  const abilities = data?.abilities ?? [];
  const canViewInvoice = paths.invoiceDetail.permissions.some((a) => abilities.includes(a));
  return <MessagesPage key={invoiceID ?? 'all'} invoiceID={invoiceID} canViewInvoice={canViewInvoice} />;
}
