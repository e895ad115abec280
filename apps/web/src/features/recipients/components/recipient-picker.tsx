import type { Recipient } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox } from '../../../components/ui/combobox';
import { IconButton } from '../../../components/ui/icon-button';
import { CloseIcon } from '../../../components/ui/icons';
import type { RecipientPickerProps } from '../../../components/ui/picker-slots';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useRecipients } from '../api/list-recipients';

const SEARCH_DELAY_MS = 250;
const SHOWN = 8;

/**
 * Chooses one of the caller's recipients: a combobox (WAI-ARIA 1.2 list autocomplete) that searches
 * the recipient list as the user types. Arrow keys move, Enter picks, Escape closes the list.
 */
export function RecipientPicker({ label, value, onChange, error, hint, required }: RecipientPickerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = useRecipients(
    { page: 1, pageSize: SHOWN, sort: 'name', order: 'asc', search: search || undefined },
    { enabled: open },
  );
  return (
    <Combobox<Recipient>
      label={label}
      hint={hint}
      error={error}
      required={required}
      text={text}
      onTextChange={(next) => {
        setText(next);
        if (value && next !== value.name) onChange(null);
      }}
      open={open}
      onOpenChange={setOpen}
      options={list.data?.items ?? []}
      optionKey={(option) => option.recipientID}
      renderOption={(option) => ({
        main: option.name,
        detail: [option.organizationNumber, option.city].filter(Boolean).join(' · '),
      })}
      onPick={(option) => {
        onChange({ recipientID: option.recipientID, name: option.name });
        setText(option.name);
      }}
      isFetching={list.isFetching}
      isSuccess={list.isSuccess}
      noMatchesText={t('recipients:picker.no_matches')}
      // Enter picks the first match of what was typed; with a recipient chosen it saves the dialog.
      enterPicksFirst={text.trim() !== '' && value === null}
      onBlur={() => {
        if (!value) setText('');
      }}
    >
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
    </Combobox>
  );
}
