import type { Article, TaxRate } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  DeleteDialog,
  ListResults,
  RegisterPage,
  RowActions,
  sortPropsOf,
  usePageInRange,
  useRegister,
} from '../../../components/ui/list-results';
import type { RecipientPickerComponent } from '../../../components/ui/picker-slots';
import { SortableHeader } from '../../../components/ui/sortable-header';
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
  const list = useArticles(query);
  const remove = useDeleteArticle();
  const register = useRegister<Article>(remove);
  const { editing, deleting } = register;

  usePageInRange(list, query, onQueryChange);
  const sortProps = sortPropsOf(query, onQueryChange);

  return (
    <RegisterPage
      title={t('articles:page.title')}
      lead={t('articles:page.lead')}
      search={query.search ?? ''}
      onSearch={(search) => onQueryChange({ search, page: 1 }, { replace: true })}
      searchLabel={t('articles:page.search')}
      searchHint={t('articles:page.search_hint')}
      newLabel={t('articles:page.new')}
      register={register}
    >
      <ListResults
        list={list}
        query={query}
        onQueryChange={onQueryChange}
        pagesLabel={t('articles:page.pages')}
        empty={
          query.search ? t('articles:page.no_matches', { search: query.search }) : t('articles:page.empty')
        }
      >
        {(data) => (
          <DataTable
            caption={t('articles:page.title')}
            className="data-table data-table--cards"
            busy={list.isFetching}
          >
            <thead>
              <tr>
                <SortableHeader
                  field="articleNumber"
                  label={t('articles:fields.articleNumber')}
                  {...sortProps}
                />
                <SortableHeader field="name" label={t('articles:fields.name')} {...sortProps} />
                <SortableHeader
                  field="priceMinor"
                  label={t('articles:columns.price')}
                  className="data-table__number"
                  {...sortProps}
                />
                <th scope="col">{t('articles:fields.unit')}</th>
                <th scope="col" className="data-table__number">
                  {t('articles:fields.vat')}
                </th>
                <th scope="col">{t('articles:fields.recipient')}</th>
                <SortableHeader field="updated" label={t('articles:columns.updated')} {...sortProps} />
                <th scope="col" className="data-table__actions">
                  <span className="visually-hidden">{t('articles:columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((article) => (
                <tr key={article.articleID}>
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
                    {article.recipientName ?? (
                      <span className="muted">{t('articles:page.all_recipients')}</span>
                    )}
                  </td>
                  <td data-label={t('articles:columns.updated')}>
                    {formatDate(article.updated, i18n.language)}
                  </td>
                  <RowActions
                    editLabel={t('articles:actions.edit_row', { name: article.name })}
                    deleteLabel={t('articles:actions.delete_row', { name: article.name })}
                    onEdit={() => register.startEdit(article)}
                    onDelete={() => register.startDelete(article)}
                  />
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </ListResults>

      {editing && (
        <ArticleFormModal
          article={editing.item}
          taxRates={taxRates}
          currency={editing.item?.currency ?? currency}
          RecipientPicker={RecipientPicker}
          onClose={register.closeEditor}
          onSaved={(saved, created) =>
            register.done(
              created
                ? t('articles:page.created', { name: saved.name })
                : t('articles:page.saved', { name: saved.name }),
            )
          }
        />
      )}
      {deleting && (
        <DeleteDialog
          title={t('articles:delete.title')}
          message={t('articles:delete.text', { name: deleting.name, number: deleting.articleNumber })}
          remove={remove}
          onHide={register.closeDelete}
          onConfirm={() =>
            remove.mutate(deleting.articleID, {
              onSuccess: () => register.done(t('articles:page.deleted', { name: deleting.name })),
            })
          }
        />
      )}
    </RegisterPage>
  );
}
