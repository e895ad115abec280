import { type listInvoicesQuerySchema, ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest, type RequestOptions } from '../../../lib/api-client';
import { pageQueryOptions } from '../../../lib/api-hooks';

export type InvoiceListQuery = z.output<typeof listInvoicesQuerySchema>;

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (query: InvoiceListQuery) => ['invoices', 'list', query] as const,
  pending: () => ['invoices', 'pending'] as const,
  nextNumber: () => ['invoices', 'next-number'] as const,
  detail: (id: string) => ['invoices', 'detail', id] as const,
};

/**
 * The query string of `listInvoices`: every value of the list's state, leaving out what is empty so
 * that the URL stays short (the server's defaults are the same as the list's).
 */
export function listInvoicesRequestQuery(query: InvoiceListQuery): NonNullable<RequestOptions['query']> {
  return {
    filter: query.filter,
    search: query.search?.trim() || undefined,
    from: query.from || undefined,
    to: query.to || undefined,
    recipientID: query.recipientID,
    bucket: query.bucket,
    sort: query.sort,
    order: query.order,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** `GET limited/invoices`: the history with the filters of spec §4, a page and the totals per currency. */
export function listInvoices(query: InvoiceListQuery, signal?: AbortSignal) {
  return apiRequest(ROUTES.listInvoices, (s) => s.listInvoicesResponseSchema, {
    query: listInvoicesRequestQuery(query),
    signal,
  });
}

export function listInvoicesQueryOptions(query: InvoiceListQuery) {
  return pageQueryOptions(invoiceKeys.list(query), (signal) => listInvoices(query, signal));
}

export function useInvoices(query: InvoiceListQuery) {
  return useQuery(listInvoicesQueryOptions(query));
}
