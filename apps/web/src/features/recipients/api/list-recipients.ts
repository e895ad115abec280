import type { listRecipientsQuerySchema } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { registerListCall } from '../../../lib/api-hooks';

export type RecipientListQuery = z.output<typeof listRecipientsQuerySchema>;

/** `GET limited/recipients`: a page of the caller's recipients, searched and sorted. */
const call = registerListCall<RecipientListQuery>()('recipients', 'listRecipients');

export const recipientKeys = call.keys;
export const listRecipients = call.list;

export function useRecipients(query: RecipientListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...call.queryOptions(query), enabled });
}
