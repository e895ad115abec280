import { zodResolver } from '@hookform/resolvers/zod';
import { ARTICLE_LIMITS, type Article, type ArticleBody, type TaxRate, UNITS } from '@portal/contracts';
import { toCurrency } from '@portal/domain/money';
import { type ReactNode, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/modal';
import { SelectField } from '../../../components/ui/select-field';
import { TextArea } from '../../../components/ui/text-area';
import { TextInput } from '../../../components/ui/text-input';
import { trackFormSubmit } from '../../../lib/analytics';
import { ApiError } from '../../../lib/api-client';
import { formatBasisPoints } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { useCreateArticle } from '../api/create-article';
import { useUpdateArticle } from '../api/update-article';
import {
  type ArticleFormValues,
  articleFormSchema,
  articleToForm,
  formFieldOf,
  type PickedRecipient,
} from './article-form-schema';
import { UNIT_LONG_KEYS, UNIT_SHORT_KEYS } from './units';

/** The recipient chooser the route hands in (it belongs to the recipients feature). */
export interface RecipientPickerProps {
  label: string;
  value: PickedRecipient | null;
  onChange: (value: PickedRecipient | null) => void;
  error?: string | undefined;
  hint?: string;
}
export type RecipientPickerComponent = (props: RecipientPickerProps) => ReactNode;

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

  const unitOptions = UNITS.map((unit) => ({
    value: unit,
    label: `${t(UNIT_LONG_KEYS[unit])} (${t(UNIT_SHORT_KEYS[unit])})`,
  }));
  const rates = taxRates.map((r) => r.rateBasisPoints);
  // An article saved with a rate the issuer no longer has still shows it, so that nothing changes unseen.
  if (article && !rates.includes(article.vatBasisPoints)) rates.push(article.vatBasisPoints);
  const vatOptions = rates.map((bp) => ({ value: String(bp), label: formatBasisPoints(bp, language) }));

  function onFailure(error: unknown) {
    if (error instanceof ApiError) {
      if (error.code === 'article.duplicate_number') {
        setError('articleNumber', { message: error.code }, { shouldFocus: true });
      }
      if (error.code === 'recipient.not_found') setError('recipient', { message: error.code });
      for (const issue of error.issues) {
        const field = formFieldOf(issue.path);
        if (field) setError(field, { message: issue.code });
      }
    }
    setFailure(error);
  }

  const submit = handleSubmit((body) => {
    setFailure(null);
    trackFormSubmit(isNew ? 'create_article' : 'update_article', Object.keys(body));
    if (article) {
      update.mutate(
        { id: article.articleID, body },
        { onSuccess: (saved) => onSaved(saved, false), onError: onFailure },
      );
    } else {
      create.mutate(body, { onSuccess: (saved) => onSaved(saved, true), onError: onFailure });
    }
  });

  const title = isNew ? t('articles:form.new_title') : t('articles:form.edit_title');
  return (
    <Modal
      title={title}
      subtitle={t('common:form.required_note')}
      onHide={onClose}
      onSubmit={() => void submit()}
      submitOnEnter
      loading={create.isPending || update.isPending}
      wide
    >
      {failure !== null && (
        <div className="notice notice--error form-failure" role="alert">
          <p>
            <strong>{isNew ? t('articles:form.create_failed') : t('articles:form.save_failed')}</strong>{' '}
            {errorText(t, failure)}
          </p>
        </div>
      )}
      <form
        className="form-grid"
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Controller
          control={control}
          name="articleNumber"
          render={({ field, fieldState }) => (
            <TextInput
              label={t('articles:fields.articleNumber')}
              limit={ARTICLE_LIMITS.articleNumber}
              autoComplete="off"
              required
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label={t('articles:fields.name')}
              limit={ARTICLE_LIMITS.name}
              autoComplete="off"
              required
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="description"
          render={({ field, fieldState }) => (
            <TextArea
              label={t('articles:fields.description')}
              limit={ARTICLE_LIMITS.description}
              error={fieldState.error?.message}
              className="form-grid__full"
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              textAreaRef={field.ref}
            />
          )}
        />
        <Controller
          control={control}
          name="price"
          render={({ field, fieldState }) => (
            <TextInput
              label={t('articles:fields.price', { currency })}
              inputMode="decimal"
              autoComplete="off"
              required
              hint={t('articles:form.price_hint')}
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="unit"
          render={({ field, fieldState }) => (
            <SelectField
              label={t('articles:fields.unit')}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              selectRef={field.ref}
              options={unitOptions}
              required
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="vatBasisPoints"
          render={({ field, fieldState }) => (
            <SelectField
              label={t('articles:fields.vat')}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              selectRef={field.ref}
              options={vatOptions}
              required
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="recipient"
          render={({ field, fieldState }) => (
            <RecipientPicker
              label={t('articles:fields.recipient')}
              hint={t('articles:form.recipient_hint')}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
      </form>
    </Modal>
  );
}
