import { type PaymentsReportQuery, ROUTES } from '@portal/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type RequestOptions } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

export interface PaymentsReportState {
  from: string;
  to: string;
  recipientID?: string | undefined;
  invoiceNumber?: string | undefined;
  page: number;
  pageSize: number;
}

/** The query string of the report and its export: what is empty is left out. */
export function paymentsReportRequestQuery(query: PaymentsReportState): NonNullable<RequestOptions['query']> {
  return {
    from: query.from,
    to: query.to,
    recipientID: query.recipientID || undefined,
    invoiceNumber: query.invoiceNumber?.trim() || undefined,
    page: query.page,
    pageSize: query.pageSize,
  } satisfies Record<keyof PaymentsReportQuery, unknown>;
}

/** `GET limited/reports/payments`: a page of the payments received in the period, with totals per currency. */
export function paymentsReportQueryOptions(query: PaymentsReportState) {
  return queryOptions({
    queryKey: ['reports', 'payments', query] as const,
    queryFn: ({ signal }) =>
      apiRequest(ROUTES.getPaymentsReport, (s) => s.paymentsReportResponseSchema, {
        query: paymentsReportRequestQuery(query),
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePaymentsReport(query: PaymentsReportState) {
  return useQuery(paymentsReportQueryOptions(query));
}

/** `GET limited/reports/payments/export`: the whole period (every page) as Excel or CSV, in the UI's language. */
export function downloadPaymentsReport(
  query: PaymentsReportState,
  format: 'excel' | 'csv',
  language: string,
): Promise<boolean> {
  const { page: _page, pageSize: _size, ...rest } = paymentsReportRequestQuery(query);
  return downloadFile(ROUTES.exportPaymentsReport, `payments.${format === 'excel' ? 'xlsx' : 'csv'}`, {
    query: { ...rest, format, language },
  });
}
