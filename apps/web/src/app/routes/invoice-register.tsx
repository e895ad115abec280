import { ArticlePicker } from '../../features/articles/components/article-picker';
import { InvoiceFormScreen } from '../../features/invoices/components/invoice-form-screen';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useSelf } from '../../lib/self';

/** `/invoice/register` (spec §2): the invoice form with the recipient and article choosers. */
export default function InvoiceRegisterRoute() {
  const { data } = useSelf();
  if (!data) return null;
  return (
    <InvoiceFormScreen
      mode="register"
      self={data}
      RecipientPicker={RecipientPicker}
      ArticlePicker={ArticlePicker}
    />
  );
}
