import { buildPath, SIGN_IN_ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApiRequest } from '../../../lib/api-client';

export const groupKeys = {
  all: ['group'] as const,
  detail: (groupid: string) => ['group', groupid] as const,
};

/** `GET limited/group&group={groupid}` (spec §7), sent as `?group=`. */
export function getGroup(groupid: string) {
  return publicApiRequest(
    { method: SIGN_IN_ROUTES.getGroup.method, path: buildPath(SIGN_IN_ROUTES.getGroup.path) },
    (s) => s.getGroupResponseSchema,
    {
      query: { group: groupid },
    },
  );
}

export function getGroupQueryOptions(groupid: string) {
  return queryOptions({
    queryKey: groupKeys.detail(groupid),
    queryFn: () => getGroup(groupid),
    retry: false,
  });
}

export function useGroup(groupid: string | undefined) {
  return useQuery({ ...getGroupQueryOptions(groupid ?? ''), enabled: Boolean(groupid) });
}
