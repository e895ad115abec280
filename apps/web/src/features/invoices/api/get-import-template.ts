import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';
import type { ImportFormat } from '../utils/import-file';

/** `GET limited/invoices/import/template?format=`: the template, saved under the server's file name. */
export async function getImportTemplate(format: ImportFormat): Promise<void> {
  const { blob, filename } = await apiDownload(ROUTES.getImportTemplate, { query: { format } });
  saveBlob(blob, filename ?? `invoice-import-template.${format}`);
}

export function useGetImportTemplate() {
  return useMutation({ mutationFn: getImportTemplate });
}
