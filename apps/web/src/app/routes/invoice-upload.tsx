import { InvoiceUploadScreen } from '../../features/invoices/components/invoice-upload-screen';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useSelf } from '../../lib/self';

/** `/invoice/upload` (spec §2): register an invoice by uploading its PDF, with the recipient chooser. */
export default function InvoiceUploadRoute() {
  const { data } = useSelf();
  if (!data) return null;
  return <InvoiceUploadScreen self={data} RecipientPicker={RecipientPicker} />;
}
