import { listInvoicesQuerySchema } from '@portal/contracts';
import { InvoiceHistoryPage } from '../../features/invoices/components/invoice-history-page';
import { useListParams } from '../../lib/list-params';

/** `/invoices` (spec §2): the history; filter, search, dates, sort and page come from the URL. */
export default function InvoicesRoute() {
  const [query, setQuery] = useListParams(listInvoicesQuerySchema);
  return <InvoiceHistoryPage query={query} onQueryChange={setQuery} />;
}
