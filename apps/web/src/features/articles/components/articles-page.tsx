import type { Article, TaxRate } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { RegisterList } from '../../../components/ui/list-results';
import type { RecipientPickerComponent } from '../../../components/ui/picker-slots';
import { formatBasisPoints, formatDate } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';
import { useDeleteArticle } from '../api/delete-article';
import { type ArticleListQuery, useArticles } from '../api/list-articles';
import { ArticleFormModal } from './article-form-modal';
import { UNIT_SHORT_KEYS } from './units';

export interface ArticlesPageProps {
  query: ArticleListQuery;
  onQueryChange: (patch: Partial<ArticleListQuery>, options?: { replace?: boolean }) => void;
  /** The issuer's VAT rates (self.taxRates). */
  taxRates: readonly TaxRate[];
  /** The currency a new article is priced in. */
  currency: string;
  RecipientPicker: RecipientPickerComponent;
}

/**
 * `/articles` (spec §2, administration): the invoice articles as a searchable, sortable, paged table
 * with create, edit and delete. Prices show in the user's language and the article's currency.
 */
export function ArticlesPage({
  query,
  onQueryChange,
  taxRates,
  currency,
  RecipientPicker,
}: ArticlesPageProps) {
  const { t, i18n } = useTranslation();
  return (
    <RegisterList<Article, ArticleListQuery['sort']>
      ns="articles"
      query={query}
      onQueryChange={onQueryChange}
      list={useArticles(query)}
      remove={useDeleteArticle()}
      idOf={(article) => article.articleID}
      columns={[
        { label: t('articles:fields.articleNumber'), sort: 'articleNumber' },
        { label: t('articles:fields.name'), sort: 'name' },
        { label: t('articles:columns.price'), sort: 'priceMinor', numeric: true },
        { label: t('articles:fields.unit') },
        { label: t('articles:fields.vat'), numeric: true },
        { label: t('articles:fields.recipient') },
        { label: t('articles:columns.updated'), sort: 'updated' },
      ]}
      cells={(article) => (
        <>
          <td data-label={t('articles:fields.articleNumber')}>{article.articleNumber}</td>
          <th scope="row" className="data-table__name">
            {article.name}
          </th>
          <td className="data-table__number" data-label={t('articles:columns.price')}>
            {formatMoney(article.priceMinor, article.currency, i18n.language)}
          </td>
          <td data-label={t('articles:fields.unit')}>{t(UNIT_SHORT_KEYS[article.unit])}</td>
          <td className="data-table__number" data-label={t('articles:fields.vat')}>
            {formatBasisPoints(article.vatBasisPoints, i18n.language)}
          </td>
          <td data-label={t('articles:fields.recipient')}>
            {article.recipientName ?? <span className="muted">{t('articles:page.all_recipients')}</span>}
          </td>
          <td data-label={t('articles:columns.updated')}>{formatDate(article.updated, i18n.language)}</td>
        </>
      )}
      deleteMessage={(article) =>
        t('articles:delete.text', { name: article.name, number: article.articleNumber })
      }
      form={(article, onClose, onSaved) => (
        <ArticleFormModal
          article={article}
          taxRates={taxRates}
          currency={article?.currency ?? currency}
          RecipientPicker={RecipientPicker}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    />
  );
}
