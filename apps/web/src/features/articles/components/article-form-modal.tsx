import { zodResolver } from '@hookform/resolvers/zod';
import { ARTICLE_LIMITS, type Article, type ArticleBody, type TaxRate, UNITS } from '@portal/contracts';
import { toCurrency } from '@portal/domain/money';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  FormMoneyField,
  FormSelectField,
  FormTextArea,
  FormTextField,
  markServerErrors,
} from '../../../components/ui/form-fields';
import { saveRecord } from '../../../components/ui/list-results';
import type { RecipientPickerComponent } from '../../../components/ui/picker-slots';
import { useRecipientField } from '../../../components/ui/recipient-field';
import { RecordFormModal } from '../../../components/ui/record-form-modal';
import { trackedSubmit } from '../../../lib/analytics';
import { formatBasisPoints } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { useCreateArticle } from '../api/create-article';
import { useUpdateArticle } from '../api/update-article';
import { type ArticleFormValues, articleFormSchema, articleToForm, formFieldOf } from './article-form-schema';
import { UNIT_LONG_KEYS, UNIT_SHORT_KEYS } from './units';

/** The refusals that are about one field: shown on it (the picker of the recipient has no focus to take). */
const ARTICLE_CODE_FIELDS = {
  'article.duplicate_number': 'articleNumber',
  'recipient.not_found': 'recipient',
} as const;

export interface ArticleFormModalProps {
  /** The article to edit; null for a new one. */
  article: Article | null;
  /** The issuer's VAT rates (self.taxRates); the first is the default of a new article. */
  taxRates: readonly TaxRate[];
  /** The currency a new article is priced in (the issuer's home currency). */
  currency: string;
  RecipientPicker: RecipientPickerComponent;
  onClose: () => void;
  onSaved: (article: Article, created: boolean) => void;
}

/**
 * Creates or edits an invoice article. The price is typed as the user writes numbers ("1 234,50" in
 * Swedish and Finnish, "1,234.50" in English) and sent as exact minor units; every other rule is the
 * contract's. A failed save keeps the dialog and what was typed; a duplicate article number is shown on
 * its field.
 */
export function ArticleFormModal({
  article,
  taxRates,
  currency,
  RecipientPicker,
  onClose,
  onSaved,
}: ArticleFormModalProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const create = useCreateArticle();
  const update = useUpdateArticle();
  const [failure, setFailure] = useState<unknown>(null);
  const isNew = article === null;
  const schema = useMemo(() => articleFormSchema(language, toCurrency(currency)), [language, currency]);
  const { control, handleSubmit, setError } = useForm<ArticleFormValues, unknown, ArticleBody>({
    resolver: zodResolver(schema),
    defaultValues: articleToForm(article, language, taxRates[0]?.rateBasisPoints),
  });
  // The picker has no focus to take; a pick does not mark the field touched.
  const recipient = useRecipientField({ control, name: 'recipient', touchOnPick: false });

  const unitOptions = UNITS.map((unit) => ({
    value: unit,
    label: `${t(UNIT_LONG_KEYS[unit])} (${t(UNIT_SHORT_KEYS[unit])})`,
  }));
  const rates = taxRates.map((r) => r.rateBasisPoints);
  // An article saved with a rate the issuer no longer has still shows it, so that nothing changes unseen.
  if (article && !rates.includes(article.vatBasisPoints)) rates.push(article.vatBasisPoints);
  const vatOptions = rates.map((bp) => ({ value: String(bp), label: formatBasisPoints(bp, language) }));

  function onFailure(error: unknown) {
    markServerErrors(error, setError, { fieldOf: formFieldOf, codeFields: ARTICLE_CODE_FIELDS });
    setFailure(error);
  }

  const submit = handleSubmit(
    trackedSubmit(isNew ? 'create_article' : 'update_article', (body: ArticleBody) => {
      setFailure(null);
      saveRecord({ id: article?.articleID, body, create, update, onSaved, onError: onFailure });
    }),
  );

  const title = isNew ? t('articles:form.new_title') : t('articles:form.edit_title');
  return (
    <RecordFormModal
      title={title}
      failureTitle={isNew ? t('articles:form.create_failed') : t('articles:form.save_failed')}
      failure={failure}
      loading={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      {(
        [
          ['articleNumber', 'articles:fields.articleNumber'],
          ['name', 'articles:fields.name'],
        ] as const
      ).map(([name, label]) => (
        <FormTextField
          key={name}
          control={control}
          name={name}
          label={t(label)}
          limit={ARTICLE_LIMITS[name]}
          autoComplete="off"
          required
        />
      ))}
      <FormTextArea
        control={control}
        name="description"
        label={t('articles:fields.description')}
        limit={ARTICLE_LIMITS.description}
        className="form-grid__full"
      />
      <FormMoneyField
        control={control}
        name="price"
        label={t('articles:fields.price', { currency })}
        required
        hint={t('articles:form.price_hint')}
      />
      {(
        [
          { name: 'unit', label: t('articles:fields.unit'), options: unitOptions },
          { name: 'vatBasisPoints', label: t('articles:fields.vat'), options: vatOptions },
        ] as const
      ).map((field) => (
        <FormSelectField key={field.name} control={control} required {...field} />
      ))}
      <RecipientPicker
        {...recipient}
        label={t('articles:fields.recipient')}
        hint={t('articles:form.recipient_hint')}
      />
    </RecordFormModal>
  );
}
