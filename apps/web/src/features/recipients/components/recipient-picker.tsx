import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../../components/ui/icon-button';
import { CloseIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { RequiredMark } from '../../../components/ui/text-input';
import { translateCode } from '../../../lib/messages';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useRecipients } from '../api/list-recipients';

export interface PickedRecipient {
  recipientID: string;
  name: string;
}

export interface RecipientPickerProps {
  label: string;
  value: PickedRecipient | null;
  onChange: (value: PickedRecipient | null) => void;
  /** An error code, shown translated under the field. */
  error?: string | undefined;
  hint?: string;
  required?: boolean;
}

const SEARCH_DELAY_MS = 250;
const SHOWN = 8;

/**
 * Chooses one of the caller's recipients: a combobox (WAI-ARIA 1.2 list autocomplete) that searches
 * the recipient list as the user types. Arrow keys move, Enter picks, Escape closes the list.
 */
export function RecipientPicker({ label, value, onChange, error, hint, required }: RecipientPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = useRecipients(
    { page: 1, pageSize: SHOWN, sort: 'name', order: 'asc', search: search || undefined },
    { enabled: open },
  );
  const options = list.data?.items ?? [];

  function pick(index: number) {
    const option = options[index];
    if (!option) return;
    onChange({ recipientID: option.recipientID, name: option.name });
    setText(option.name);
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
    const typed = text.trim() !== '' && value === null;
    if (event.key === 'Enter' && open && options.length > 0 && (active >= 0 || typed)) {
      // Enter picks here; it must not reach the dialog, where it would save the form.
      event.preventDefault();
      event.stopPropagation();
      pick(Math.max(active, 0));
      return;
    }
    if (event.key === 'Escape' && open) {
      // Escape closes the list first; a second Escape reaches the dialog.
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  }

  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  const activeId = active >= 0 && options[active] ? `${id}-option-${active}` : undefined;
  return (
    <div className={['field', 'combobox', error && 'field--invalid'].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
        {required && <RequiredMark />}
      </label>
      <div className="combobox__control">
        <input
          id={id}
          type="text"
          role="combobox"
          className="field__input combobox__input"
          autoComplete="off"
          value={text}
          required={required}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? activeId : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
            if (value && event.target.value !== value.name) onChange(null);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            // A click on an option lands before the blur closes the list (onMouseDown below).
            setOpen(false);
            if (!value) setText('');
          }}
          onKeyDown={onKeyDown}
        />
        {value && (
          <IconButton
            icon={CloseIcon}
            size={16}
            className="combobox__clear"
            aria-label={t('recipients:picker.clear', { name: value.name })}
            onClick={() => {
              onChange(null);
              setText('');
            }}
          />
        )}
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
              key={option.recipientID}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              className={['combobox__option', index === active && 'combobox__option--active']
                .filter(Boolean)
                .join(' ')}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(index)}
            >
              <span>{option.name}</span>
              <span className="muted">
                {[option.organizationNumber, option.city].filter(Boolean).join(' · ')}
              </span>
            </div>
          ))}
        </div>
        {open && options.length === 0 && (list.isFetching || list.isSuccess) && (
          <div className="combobox__list combobox__note" role="status">
            {list.isFetching ? <Spinner size="small" /> : t('recipients:picker.no_matches')}
          </div>
        )}
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {translateCode(t, error)}
        </p>
      )}
    </div>
  );
}
