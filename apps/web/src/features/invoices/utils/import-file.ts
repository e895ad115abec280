import { FILE_MAX_BYTES, IMPORT_FORMATS } from '@portal/contracts';

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The content type each format is sent with; the server reads the body as bytes whatever it says. */
export const IMPORT_CONTENT_TYPES: Record<ImportFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** What the file input offers: the extensions and the types browsers give them. */
export const IMPORT_ACCEPT = ['.csv', '.xlsx', 'text/csv', IMPORT_CONTENT_TYPES.xlsx].join(',');

/**
 * The import format of a chosen file, by its extension (browsers disagree on the type of a .csv: text/csv,
 * text/plain or application/vnd.ms-excel); null for anything else, including the old binary .xls.
 */
export function importFormatOf(file: Pick<File, 'name'>): ImportFormat | null {
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase();
  return (IMPORT_FORMATS as readonly string[]).includes(extension ?? '') ? (extension as ImportFormat) : null;
}

/**
 * Why a chosen file cannot be sent, checked before any upload: a translation key (`ns:key`) or an error
 * code, or null when the file may go to the preview.
 */
export function importFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (importFormatOf(file) === null) return 'invoices:import.unsupported_file';
  if (file.size === 0) return 'import.empty';
  if (file.size > FILE_MAX_BYTES) return 'files.too_large';
  return null;
}
