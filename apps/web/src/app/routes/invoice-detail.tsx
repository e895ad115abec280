import { useLocation, useParams } from 'react-router';
import { InvoiceDetailPage } from '../../features/invoices/components/invoice-detail-page';
import type { InvoiceNotice } from '../../features/invoices/components/invoice-form-screen';
import { useSelf } from '../../lib/self';

function noticeOf(state: unknown): InvoiceNotice | null {
  const notice = (state as { notice?: unknown } | null)?.notice;
  return notice === 'registered' || notice === 'updated' ? notice : null;
}

/** `/invoices/{id}`: one invoice; a notice when the form has just saved it. */
export default function InvoiceDetailRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  const { data } = useSelf();
  return (
    <InvoiceDetailPage
      key={id}
      invoiceID={id}
      abilities={data?.abilities ?? []}
      notice={noticeOf(location.state)}
    />
  );
}
