import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { Spinner } from './spinner';
import { FieldShell, fieldDescription } from './text-input';

export interface ComboboxProps<O> {
  label: string;
  hint?: string | undefined;
  /** An error code, shown translated under the field. */
  error?: string | undefined;
  required?: boolean | undefined;
  /** `search` for a finder that empties after each pick, `text` for a field that holds its pick. */
  type?: 'search' | 'text';
  /** What the input shows. */
  text: string;
  /** The user typed: the list opens and no option is active. */
  onTextChange: (text: string) => void;
  /** The list is open (the parent may search only while it is). */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The options to show (the first page of the search). */
  options: readonly O[];
  optionKey: (option: O) => string;
  /** An option's text: what it is, and what tells it apart (muted). */
  renderOption: (option: O) => { main: ReactNode; detail: ReactNode };
  onPick: (option: O) => void;
  /** The search is on its way (a spinner while no option is shown) or answered (the no-match text). */
  isFetching: boolean;
  isSuccess: boolean;
  noMatchesText: string;
  /** Whether Enter picks (the active option, else the first) when no option is active. */
  enterPicksFirst: boolean;
  /** Enter never leaves the field, also when it picks nothing (a finder inside a larger form). */
  trapEnter?: boolean;
  onBlur?: () => void;
  /** Shown after the input inside the control, e.g. a clear button. */
  children?: ReactNode;
}

/**
 * A combobox (WAI-ARIA 1.2 list autocomplete) over a search the parent runs: arrow keys move, Enter
 * picks, Escape closes the list (a second Escape reaches the dialog around it); the focus stays in the
 * input, which points at the active option with aria-activedescendant.
 */
export function Combobox<O>({
  label,
  hint,
  error,
  required,
  type = 'text',
  text,
  onTextChange,
  open,
  onOpenChange,
  options,
  optionKey,
  renderOption,
  onPick,
  isFetching,
  isSuccess,
  noMatchesText,
  enterPicksFirst,
  trapEnter = false,
  onBlur,
  children,
}: ComboboxProps<O>) {
  const id = useId();
  const listId = `${id}-list`;
  const { describedBy } = fieldDescription(id, hint, error);
  const [active, setActive] = useState(-1);

  function pick(index: number) {
    const option = options[index];
    if (!option) return;
    onPick(option);
    onOpenChange(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) onOpenChange(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => {
        if (options.length === 0) return -1;
        return (current + step + options.length) % options.length;
      });
      return;
    }
    if (event.key === 'Enter') {
      const picks = open && options.length > 0 && (active >= 0 || enterPicksFirst);
      // Enter that picks must not reach the form or dialog around, where it would save.
      if (picks || trapEnter) event.preventDefault();
      if (picks) {
        event.stopPropagation();
        pick(Math.max(active, 0));
      }
      return;
    }
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      onOpenChange(false);
      setActive(-1);
    }
  }

  const activeId = active >= 0 && options[active] ? `${id}-option-${active}` : undefined;
  return (
    <FieldShell id={id} label={label} required={required} hint={hint} error={error} className="combobox">
      <div className="combobox__control">
        <input
          id={id}
          type={type}
          role="combobox"
          className="field__input combobox__input"
          autoComplete="off"
          value={text}
          required={required}
          aria-autocomplete="list"
          aria-expanded={open && options.length > 0}
          aria-controls={listId}
          aria-activedescendant={open ? activeId : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            onTextChange(event.target.value);
            onOpenChange(true);
            setActive(-1);
          }}
          onFocus={() => onOpenChange(true)}
          onBlur={() => {
            // A click on an option lands before the blur closes the list (onMouseDown below).
            onOpenChange(false);
            onBlur?.();
          }}
          onKeyDown={onKeyDown}
        />
        {children}
        <div
          id={listId}
          role="listbox"
          aria-label={label}
          className="combobox__list"
          hidden={!open || options.length === 0}
        >
          {options.map((option, index) => {
            const { main, detail } = renderOption(option);
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant).
              // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the combobox input, which points at the active option with aria-activedescendant (WAI-ARIA combobox pattern).
              <div
                key={optionKey(option)}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={index === active}
                className={['combobox__option', index === active && 'combobox__option--active']
                  .filter(Boolean)
                  .join(' ')}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(index)}
              >
                <span>{main}</span>
                <span className="muted">{detail}</span>
              </div>
            );
          })}
        </div>
        {open && options.length === 0 && (isFetching || isSuccess) && (
          <div className="combobox__list combobox__note" role="status">
            {isFetching ? <Spinner size="small" /> : noMatchesText}
          </div>
        )}
      </div>
    </FieldShell>
  );
}
