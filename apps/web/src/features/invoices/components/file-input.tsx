import { type Ref, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '../texts';

export interface FileInputProps {
  /** The native input's id: the field's `<label htmlFor>` names it. */
  id: string;
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  /** The names shown beside the button: the files chosen (or held); none shows "no file chosen". */
  fileNames: readonly string[];
  onFiles: (files: File[]) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** Extra ids describing the input (a hint). */
  describedBy?: string;
}

/**
 * A file input in the UI's language: the browser's own button and "No file chosen" follow the
 * browser's language, so the native input is visually hidden (still focusable, still named by its
 * label, Enter/Space open the file dialog) and a translated button and the chosen names are shown.
 */
export function FileInput({
  id,
  accept,
  multiple = false,
  disabled = false,
  fileNames,
  onFiles,
  inputRef,
  describedBy,
}: FileInputProps) {
  const { t } = useTranslation();
  const namesID = useId();
  const own = useRef<HTMLInputElement | null>(null);

  return (
    <div className="file-input">
      <input
        ref={(element) => {
          own.current = element;
          if (typeof inputRef === 'function') inputRef(element);
          else if (inputRef) inputRef.current = element;
        }}
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        className="visually-hidden file-input__native"
        aria-describedby={[namesID, describedBy].filter(Boolean).join(' ')}
        onChange={(event) => onFiles(Array.from(event.target.files ?? []))}
      />
      {/* The visible button for the mouse; the keyboard and screen readers use the input itself. */}
      <span
        className="btn btn--secondary file-input__button"
        aria-hidden="true"
        onClick={() => {
          if (!disabled) own.current?.click();
        }}
      >
        {t(multiple ? 'invoices:files.choose_many' : 'invoices:files.choose_one')}
      </span>
      <span id={namesID} className="file-input__names">
        {fileNames.length > 0 ? fileNames.join(', ') : t('invoices:files.none_chosen')}
      </span>
    </div>
  );
}
