import { type Language, ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';
import type { ImportFormat } from '../utils/import-file';

/**
 * `GET limited/invoices/import/template?format=&language=`: the template with its column names and
 * number format in the UI's language (as the reports), saved under the server's file name.
 */
export async function getImportTemplate(format: ImportFormat, language: Language): Promise<void> {
  const { blob, filename } = await apiDownload(ROUTES.getImportTemplate, { query: { format, language } });
  saveBlob(blob, filename ?? `invoice-import-template.${format}`);
}

export function useGetImportTemplate(language: Language) {
  return useMutation({ mutationFn: (format: ImportFormat) => getImportTemplate(format, language) });
}
