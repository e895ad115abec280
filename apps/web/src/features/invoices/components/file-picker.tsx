import { FILE_MAX_BYTES } from '@portal/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { toLanguage } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { type FileRole, type InvoiceFile, looksLikePdf, uploadInvoiceFile } from '../api/upload-file';
import { formatFileSize } from '../utils/file-size';
import { FileInput } from './file-input';

export interface PdfFilesProps {
  /** `attachment`: several files; `invoice`: the one PDF of the invoice itself. */
  fileRole: FileRole;
  label: string;
  files: readonly InvoiceFile[];
  onChange: (files: InvoiceFile[]) => void;
  /** Most files the list takes. */
  max: number;
  /** A rule code shown under the list (e.g. `files.required`). */
  error?: string | null;
}

/**
 * Chooses PDF files and uploads each at once (`POST limited/files`), listing the stored ones with
 * name and size, each removable. A file that does not start with `%PDF-` is refused before upload;
 * the server's own refusals (`files.not_pdf`, `files.too_large`) are shown translated.
 */
export function PdfFiles({ fileRole, label, files, onChange, max, error = null }: PdfFilesProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const inputID = useId();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  // The names of the files being uploaded, shown beside the button until they join the list.
  const [uploadingNames, setUploadingNames] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);

  async function add(chosen: File[]) {
    setFailure(null);
    setUploading(true);
    setUploadingNames(chosen.map((file) => file.name));
    const added: InvoiceFile[] = [];
    try {
      for (const file of chosen.slice(0, Math.max(0, max - files.length))) {
        if (file.size > FILE_MAX_BYTES) {
          setFailure(`${file.name}: ${t('errors:files.too_large')}`);
          continue;
        }
        if (!(await looksLikePdf(file))) {
          setFailure(`${file.name}: ${t('errors:files.not_pdf')}`);
          continue;
        }
        try {
          added.push(await uploadInvoiceFile(file, fileRole));
        } catch (err) {
          setFailure(`${file.name}: ${errorText(t, err)}`);
        }
      }
    } finally {
      setUploading(false);
      setUploadingNames([]);
      if (input.current) input.current.value = '';
    }
    if (added.length > 0) onChange([...files, ...added]);
  }

  const full = files.length >= max;
  return (
    <div className="pdf-files stack">
      <label htmlFor={inputID} className="field__label">
        {label}
      </label>
      {files.length > 0 && (
        <ul className="file-list" aria-label={label}>
          {files.map((file) => (
            <li key={file.fileID} className="file-list__item">
              <span>{file.filename}</span>
              <span className="file-list__meta">{formatFileSize(file.size, language)}</span>
              <Button
                variant="transparent"
                label={t('invoices:files.remove')}
                aria-label={t('invoices:files.remove_named', { name: file.filename })}
                onClick={() => onChange(files.filter((f) => f.fileID !== file.fileID))}
              />
            </li>
          ))}
        </ul>
      )}
      <div className="button-row">
        <FileInput
          inputRef={input}
          id={inputID}
          accept="application/pdf"
          multiple={max > 1}
          disabled={uploading || full}
          fileNames={uploadingNames}
          onFiles={(chosen) => void add(chosen)}
        />
        {uploading && <span className="muted">{t('invoices:files.uploading')}</span>}
      </div>
      <p className="muted">
        {fileRole === 'invoice'
          ? t('invoices:files.hint_invoice')
          : t('invoices:files.hint_attachments', { max })}
      </p>
      {(failure || error) && (
        <p className="field__error" role="alert">
          {failure ?? (error ? t(`errors:${error}`) : null)}
        </p>
      )}
    </div>
  );
}
