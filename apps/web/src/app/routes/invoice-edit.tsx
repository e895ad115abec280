import { useParams } from 'react-router';
import { ArticlePicker } from '../../features/articles/components/article-picker';
import { InvoiceFormScreen } from '../../features/invoices/components/invoice-form-screen';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useSelf } from '../../lib/self';

/** `/invoice/edit/{id}` (spec §2): the invoice form over a pending invoice. */
export default function InvoiceEditRoute() {
  const { id = '' } = useParams();
  const { data } = useSelf();
  if (!data) return null;
  return (
    <InvoiceFormScreen
      key={id}
      mode="edit"
      invoiceID={id}
      self={data}
      RecipientPicker={RecipientPicker}
      ArticlePicker={ArticlePicker}
    />
  );
}
