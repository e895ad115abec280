import { listArticlesQuerySchema } from '@portal/contracts';
import { ArticlesPage } from '../../features/articles/components/articles-page';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useListParams } from '../../lib/list-params';
import { useSelf } from '../../lib/self';

/**
 * `/articles` (spec §2, guarded by the history abilities): page, sort and search come from the URL;
 * the VAT rates and the currency from `self`, which the root layout has loaded; the recipient chooser
 * from the recipients feature.
 */
export default function ArticlesRoute() {
  const [query, setQuery] = useListParams(listArticlesQuerySchema);
  const { data } = useSelf();
  if (!data) return null;
  return (
    <ArticlesPage
      query={query}
      onQueryChange={setQuery}
      taxRates={data.taxRates}
      currency={data.currencies[0] ?? 'SEK'}
      RecipientPicker={RecipientPicker}
    />
  );
}
