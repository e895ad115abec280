import { listRecipientsQuerySchema } from '@portal/contracts';
import { RecipientsPage } from '../../features/recipients/components/recipients-page';
import { useListParams } from '../../lib/list-params';

/** `/recipient` (spec §2, always shown): page, sort and search come from the URL. */
export default function RecipientRoute() {
  const [query, setQuery] = useListParams(listRecipientsQuerySchema);
  return <RecipientsPage query={query} onQueryChange={setQuery} />;
}
