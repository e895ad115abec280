import type { Article } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox } from '../../../components/ui/combobox';
import type { ArticlePickerProps } from '../../../components/ui/picker-slots';
import { formatMoney } from '../../../lib/money';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useArticles } from '../api/list-articles';

const SEARCH_DELAY_MS = 250;
const SHOWN = 8;

/**
 * Finds one of the caller's invoice articles by number, name or description: a combobox (WAI-ARIA 1.2
 * list autocomplete) that searches the article register as the user types. Arrow keys move, Enter
 * picks, Escape closes the list. The texts come from the screen that uses it.
 */
export function ArticlePicker({ label, onPick, hint, noMatchesText }: ArticlePickerProps) {
  const { i18n } = useTranslation();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = useArticles({ page: 1, pageSize: SHOWN, sort: 'articleNumber', order: 'asc', search });
  return (
    <Combobox<Article>
      label={label}
      hint={hint}
      type="search"
      text={text}
      onTextChange={setText}
      open={open}
      onOpenChange={setOpen}
      options={open ? (list.data?.items ?? []) : []}
      optionKey={(option) => option.articleID}
      renderOption={(option) => ({
        main: (
          <>
            {option.articleNumber} · {option.name}
          </>
        ),
        detail: [formatMoney(option.priceMinor, option.currency, i18n.language), option.recipientName]
          .filter(Boolean)
          .join(' · '),
      })}
      onPick={(article) => {
        onPick(article);
        setText('');
      }}
      isFetching={list.isFetching}
      isSuccess={list.isSuccess}
      noMatchesText={noMatchesText}
      enterPicksFirst
      trapEnter
    />
  );
}
