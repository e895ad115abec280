import {
  type InstallmentPlanBody,
  type InstallmentPlanSummary,
  type ListInstallmentPlansQuery,
  MAX_PAGE_SIZE,
  PLAN_TRANSITIONS,
  ROUTES,
} from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDownload, apiRequest } from '../../../lib/api-client';
import { pageQueryOptions, routeAt } from '../../../lib/api-hooks';
import { saveBlob } from '../../../lib/download';

export const planKeys = {
  all: ['installment-plans'] as const,
  list: (query: ListInstallmentPlansQuery) => ['installment-plans', 'list', query] as const,
  detail: (id: string) => ['installment-plans', 'detail', id] as const,
  replaceable: () => ['installment-plans', 'list', 'replaceable'] as const,
};

/** `GET limited/installmentplans`: a page of the issuer's plans, filtered by state and search. */
export function listInstallmentPlans(query: ListInstallmentPlansQuery, signal?: AbortSignal) {
  return apiRequest(ROUTES.listInstallmentPlans, (s) => s.listInstallmentPlansResponseSchema, {
    query: {
      state: query.state,
      search: query.search?.trim() || undefined,
      sort: query.sort,
      order: query.order,
      page: query.page,
      pageSize: query.pageSize,
    },
    signal,
  });
}

export function useInstallmentPlans(query: ListInstallmentPlansQuery) {
  return useQuery(pageQueryOptions(planKeys.list(query), (signal) => listInstallmentPlans(query, signal)));
}

/** `GET limited/installmentplans/:id`: one plan with its schedule, signees, securities and timeline. */
export function installmentPlanQuery(id: string) {
  return queryOptions({
    queryKey: planKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(routeAt(ROUTES.getInstallmentPlan, { id }), (s) => s.installmentPlanDetailSchema, {
        signal,
      }),
  });
}

export function useInstallmentPlan(id: string) {
  return useQuery(installmentPlanQuery(id));
}

/**
 * The issuer's plans a new plan may replace (`PLAN_TRANSITIONS.replace`: active, under final notice,
 * recalled), by loan number: one list call per state, the largest page each.
 */
export function useReplaceablePlans() {
  return useQuery({
    queryKey: planKeys.replaceable(),
    queryFn: async ({ signal }): Promise<InstallmentPlanSummary[]> => {
      const pages = await Promise.all(
        PLAN_TRANSITIONS.replace.from.map((state) =>
          listInstallmentPlans(
            { state, sort: 'loanNumber', order: 'asc', page: 1, pageSize: MAX_PAGE_SIZE },
            signal,
          ),
        ),
      );
      return pages.flatMap((p) => p.items).sort((a, b) => a.loanNumber.localeCompare(b.loanNumber));
    },
  });
}

/**
 * `POST limited/installmentplans`: registers a plan. The same key for every attempt of one form, so a
 * retry or a double click registers it once.
 */
export function useRegisterInstallmentPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: InstallmentPlanBody; idempotencyKey: string }) =>
      apiRequest(ROUTES.registerInstallmentPlan, (s) => s.installmentPlanDetailSchema, {
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: (plan) => {
      queryClient.setQueryData(planKeys.detail(plan.installmentPlanID), plan);
      return queryClient.invalidateQueries({ queryKey: [...planKeys.all, 'list'] });
    },
  });
}

/** A move of the plan's page (send for signing, cancel): the answer is the plan as it is now. */
function usePlanMove(
  route: typeof ROUTES.sendInstallmentPlanForSigning | typeof ROUTES.cancelInstallmentPlan,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(routeAt(route, { id }), (s) => s.installmentPlanDetailSchema),
    onSuccess: (plan) => {
      queryClient.setQueryData(planKeys.detail(plan.installmentPlanID), plan);
      return queryClient.invalidateQueries({ queryKey: [...planKeys.all, 'list'] });
    },
  });
}

/** `POST limited/installmentplans/:id/signing`: the signing order; the plan is then sent for signing. */
export function useSendPlanForSigning() {
  return usePlanMove(ROUTES.sendInstallmentPlanForSigning);
}

/** `POST limited/installmentplans/:id/cancel`: cancels a plan that is not active yet. */
export function useCancelPlan() {
  return usePlanMove(ROUTES.cancelInstallmentPlan);
}

/** `GET limited/installmentplans/:id/agreement`: the sealed agreement, saved under the server's name. */
export function useDownloadAgreement() {
  return useMutation({
    mutationFn: async (plan: { installmentPlanID: string; loanNumber: string }) => {
      const { blob, filename } = await apiDownload(
        routeAt(ROUTES.downloadInstallmentPlanAgreement, { id: plan.installmentPlanID }),
      );
      saveBlob(blob, filename ?? `agreement-${plan.loanNumber}.pdf`);
    },
  });
}
