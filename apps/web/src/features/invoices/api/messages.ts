import { type CreateMessageBody, ROUTES } from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { pageQueryOptions, routeAt } from '../../../lib/api-hooks';
import { selfKeys } from '../../../lib/self';

export interface MessageListParams {
  invoiceID: string | null;
  page: number;
  pageSize: number;
}

export const messageKeys = {
  all: ['messages'] as const,
  list: (params: MessageListParams) => ['messages', 'list', params] as const,
};

/** `GET limited/messages`: newest first, one invoice's thread when `invoiceID` is set. */
export function listMessages(params: MessageListParams, signal?: AbortSignal) {
  return apiRequest(ROUTES.listMessages, (s) => s.listMessagesResponseSchema, {
    query: { invoiceID: params.invoiceID ?? undefined, page: params.page, pageSize: params.pageSize },
    signal,
  });
}

export function useMessages(params: MessageListParams) {
  return useQuery(pageQueryOptions(messageKeys.list(params), (signal) => listMessages(params, signal)));
}

/** The header counts unread messages from `self`: it is read again after a change. */
function useRefreshMessages() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: messageKeys.all }),
      queryClient.invalidateQueries({ queryKey: selfKeys.all }),
    ]);
}

/** `POST limited/messages/:id/read`. */
export function useMarkMessageRead() {
  const refresh = useRefreshMessages();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(routeAt(ROUTES.markMessageRead, { id }), (s) => s.okResponseSchema),
    onSuccess: refresh,
  });
}

/** `POST limited/messages`: a message to us, about an invoice or in general. */
export function useCreateMessage() {
  const refresh = useRefreshMessages();
  return useMutation({
    mutationFn: (body: CreateMessageBody) =>
      apiRequest(ROUTES.createMessage, (s) => s.createMessageResponseSchema, { body }),
    onSuccess: refresh,
  });
}
