import type { Article } from '@portal/contracts';
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { formatMoney } from '../../../lib/money';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useArticles } from '../api/list-articles';

export interface ArticlePickerProps {
  label: string;
  /** Called with the chosen article; the search box then empties for the next one. */
  onPick: (article: Article) => void;
  hint?: string;
  /** Shown when the search matches no article. */
  noMatchesText: string;
}

const SEARCH_DELAY_MS = 250;
const SHOWN = 8;

/**
 * Finds one of the caller's invoice articles by number, name or description: a combobox (WAI-ARIA 1.2
 * list autocomplete) that searches the article register as the user types. Arrow keys move, Enter
 * picks, Escape closes the list. The texts come from the screen that uses it.
 */
export function ArticlePicker({ label, onPick, hint, noMatchesText }: ArticlePickerProps) {
  const { i18n } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = useArticles({ page: 1, pageSize: SHOWN, sort: 'articleNumber', order: 'asc', search });
  const options = open ? (list.data?.items ?? []) : [];

  function pick(index: number) {
    const option = options[index];
    if (!option) return;
    onPick(option);
    setText('');
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => {
        if (options.length === 0) return -1;
        return (current + step + options.length) % options.length;
      });
      return;
    }
    if (event.key === 'Enter') {
      // Enter picks here; it must not submit the form around the picker.
      event.preventDefault();
      if (open) pick(Math.max(active, 0));
      return;
    }
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  }

  const activeId = active >= 0 && options[active] ? `${id}-option-${active}` : undefined;
  return (
    <div className="field combobox">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="combobox__control">
        <input
          id={id}
          type="search"
          role="combobox"
          className="field__input combobox__input"
          autoComplete="off"
          value={text}
          aria-autocomplete="list"
          aria-expanded={open && options.length > 0}
          aria-controls={listId}
          aria-activedescendant={open ? activeId : undefined}
          aria-describedby={hint ? hintId : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <div
          id={listId}
          role="listbox"
          aria-label={label}
          className="combobox__list"
          hidden={!open || options.length === 0}
        >
          {options.map((option, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant).
            // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the combobox input, which points at the active option with aria-activedescendant (WAI-ARIA combobox pattern).
            <div
              key={option.articleID}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              className={['combobox__option', index === active && 'combobox__option--active']
                .filter(Boolean)
                .join(' ')}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(index)}
            >
              <span>
                {option.articleNumber} · {option.name}
              </span>
              <span className="muted">
                {[formatMoney(option.priceMinor, option.currency, i18n.language), option.recipientName]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </div>
          ))}
        </div>
        {open && options.length === 0 && (list.isFetching || list.isSuccess) && (
          <div className="combobox__list combobox__note" role="status">
            {list.isFetching ? <Spinner size="small" /> : noMatchesText}
          </div>
        )}
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
