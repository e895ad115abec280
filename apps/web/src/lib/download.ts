import type { ApiRoute, RequestOptions } from './api-client';
import { apiDownload } from './api-client';

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  // Revoke on the next tick: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Downloads a report file (spec §7): blob plus the name from content-disposition. Resolves false
 * instead of throwing, because spec §8 makes report download failures silent for the user.
 */
export async function downloadFile(
  route: ApiRoute,
  fallbackName: string,
  options: RequestOptions = {},
): Promise<boolean> {
  try {
    const { blob, filename } = await apiDownload(route, options);
    saveBlob(blob, filename ?? fallbackName);
    return true;
  } catch {
    return false;
  }
}
