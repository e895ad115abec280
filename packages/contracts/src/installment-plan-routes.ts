import type { RouteDef } from './routes';

/** What every plan call needs: a full session with `limited_contract_financing` (spec §6), closed during setup. */
const PLAN_CALL = {
  auth: 'session',
  permission: 'limited_contract_financing',
  allowDuringSetup: false,
} as const;

function planRoute<const M extends RouteDef['method'], const P extends string>(method: M, path: P) {
  return { method, path, ...PLAN_CALL } as const satisfies RouteDef;
}

/**
 * The installment plan calls (issue #14), spread into `ROUTES`. Paths are under `/api/limited/` like
 * every other customer call. Payloads (installment-plans.ts): list `listInstallmentPlansQuerySchema` →
 * `listInstallmentPlansResponseSchema`; register and update `installmentPlanBodySchema` (register with an
 * `Idempotency-Key` header) → `installmentPlanDetailSchema`, as are get, send for signing and cancel;
 * another issuer's plan answers 404 `installmentPlans.not_found`, a move the state table does not
 * allow 409 `installmentPlans.invalid_transition`, a body that breaks a rule 400
 * `installmentPlans.invalid` with the issues. The signed agreement is a PDF download. Our credit
 * decision is a back-office call; the e-signing provider's callback is public and proves itself by the
 * token in its URL (docs/INSTALLMENTS.md "Signing").
 */
export const INSTALLMENT_PLAN_ROUTES = {
  listInstallmentPlans: planRoute('GET', '/api/limited/installmentplans'),
  registerInstallmentPlan: planRoute('POST', '/api/limited/installmentplans'),
  getInstallmentPlan: planRoute('GET', '/api/limited/installmentplans/:id'),
  /** Edit while registered (`PLAN_TRANSITIONS.edit`). */
  updateInstallmentPlan: planRoute('PUT', '/api/limited/installmentplans/:id'),
  /** Creates the signing order and moves the plan to sent for signing (`PLAN_TRANSITIONS.sendForSigning`). */
  sendInstallmentPlanForSigning: planRoute('POST', '/api/limited/installmentplans/:id/signing'),
  /** Cancels a plan that is not active yet (`PLAN_TRANSITIONS.cancel`). */
  cancelInstallmentPlan: planRoute('POST', '/api/limited/installmentplans/:id/cancel'),
  /** The sealed agreement of a signed plan, as the provider sealed it. */
  downloadInstallmentPlanAgreement: planRoute('GET', '/api/limited/installmentplans/:id/agreement'),
  /** Our credit decision on a signed plan (`PLAN_TRANSITIONS.approve` / `.reject`). */
  decideInstallmentPlan: {
    method: 'POST',
    path: '/api/backoffice/installmentplans/:id/decision',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  /** The e-signing provider's notice that an order changed (Scrive's form callback). */
  receiveESigningCallback: {
    method: 'POST',
    path: '/api/e-signing/callback',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
} as const satisfies Record<string, RouteDef>;

export type InstallmentPlanOperationId = keyof typeof INSTALLMENT_PLAN_ROUTES;
