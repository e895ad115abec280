import { useParams } from 'react-router';
import { ArticlePicker } from '../../features/articles/components/article-picker';
import { InvoiceFormScreen } from '../../features/invoices/components/invoice-form-screen';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useSelf } from '../../lib/self';

/** `/invoices/duplicate/{id}` (spec §2): the register form in duplicate mode, prefilled from an invoice. */
export default function InvoicesDuplicateRoute() {
  const { id = '' } = useParams();
  const { data } = useSelf();
  if (!data) return null;
  return (
    <InvoiceFormScreen
      key={id}
      mode="duplicate"
      invoiceID={id}
      self={data}
      RecipientPicker={RecipientPicker}
      ArticlePicker={ArticlePicker}
    />
  );
}
