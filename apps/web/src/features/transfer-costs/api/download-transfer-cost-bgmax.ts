import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client';
import { routeAt } from '../../../lib/api-hooks';
import { saveBlob } from '../../../lib/download';

/** `GET limited/transfercosts/:id/bgmax`: the settlement as a BGMAX file, saved under the server's name. */
export async function downloadTransferCostBgmax(input: {
  settlementID: string;
  number: number;
}): Promise<void> {
  const { blob, filename } = await apiDownload(
    routeAt(ROUTES.getTransferCostBgmax, { id: input.settlementID }),
  );
  saveBlob(blob, filename ?? `settlement-${input.number}.bgmax`);
}

export function useDownloadTransferCostBgmax() {
  return useMutation({ mutationFn: downloadTransferCostBgmax });
}
