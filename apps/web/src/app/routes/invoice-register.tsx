import { useParams } from 'react-router';
import { ArticlePicker } from '../../features/articles/components/article-picker';
import { InvoiceFormScreen } from '../../features/invoices/components/invoice-form-screen';
import type { InvoicePickers } from '../../features/invoices/components/pickers';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useSelf } from '../../lib/self';

/** The recipients' and the articles' features' pickers, which the invoice form takes as slots. */
const PICKERS: InvoicePickers = { RecipientPicker, ArticlePicker };

/** The invoice form with the recipient and article choosers, over the invoice of the path's id if any. */
function InvoiceFormRoute({ mode }: { mode: 'register' | 'edit' | 'duplicate' }) {
  const { id } = useParams();
  const { data } = useSelf();
  if (!data) return null;
  return <InvoiceFormScreen key={id} mode={mode} invoiceID={id} self={data} {...PICKERS} />;
}

/** `/invoice/register` (spec §2): a new invoice. */
export default function InvoiceRegisterRoute() {
  return <InvoiceFormRoute mode="register" />;
}

/** `/invoice/edit/{id}` (spec §2): the invoice form over a pending invoice. */
export function InvoiceEditRoute() {
  return <InvoiceFormRoute mode="edit" />;
}

/** `/invoices/duplicate/{id}` (spec §2): the register form in duplicate mode, prefilled from an invoice. */
export function InvoicesDuplicateRoute() {
  return <InvoiceFormRoute mode="duplicate" />;
}
