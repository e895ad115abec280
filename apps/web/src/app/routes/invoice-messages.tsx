import { canOpenPage } from '@portal/contracts';
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
  const canViewInvoice = canOpenPage(abilities, paths.invoiceDetail);
  return <MessagesPage key={invoiceID ?? 'all'} invoiceID={invoiceID} canViewInvoice={canViewInvoice} />;
}
