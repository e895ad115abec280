import { SendInvoicesPage } from '../../features/invoices/components/send-invoices-page';

/** `/invoice/send` (spec §2): the pending invoices to send. */
export default function InvoiceSendRoute() {
  return <SendInvoicesPage />;
}
