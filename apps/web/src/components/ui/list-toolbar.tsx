import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { TextInput } from './text-input';

/** How long typing must pause before a list searches (each search is one API call). */
export const SEARCH_DEBOUNCE_MS = 300;

export interface ListToolbarProps {
  /** The search the list shows now (from the URL). */
  search: string;
  onSearch: (search: string) => void;
  searchLabel: string;
  searchHint?: string;
  /** Buttons at the end of the bar, e.g. "New recipient". */
  children?: ReactNode;
}

/**
 * The search box above a list: it searches once the user stops typing, and follows the URL when the
 * search changes from outside (the back button).
 */
export function ListToolbar({ search, onSearch, searchLabel, searchHint, children }: ListToolbarProps) {
  const [text, setText] = useState(search);
  const debounced = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const sent = useRef(search);

  useEffect(() => {
    if (debounced === sent.current) return;
    sent.current = debounced;
    onSearch(debounced);
  }, [debounced, onSearch]);

  useEffect(() => {
    if (search === sent.current) return;
    sent.current = search;
    setText(search);
  }, [search]);

  return (
    <div className="list-toolbar">
      <TextInput
        label={searchLabel}
        name="search"
        type="search"
        value={text}
        onChange={setText}
        hint={searchHint}
        autoComplete="off"
        className="list-toolbar__search"
      />
      <div className="list-toolbar__actions">{children}</div>
    </div>
  );
}
