import { z } from 'zod';
import { currentPasswordField, twoFactorStepBody, usernameField } from './auth';
import { SERVICE_TYPES } from './invoices';
import { pageQueryShape, pageSchema } from './lists';
import { requiredText } from './rules';

/** Longest reason of a credit rejection, in code points; the customer reads it on the invoice's timeline. */
export const REJECTION_REASON_MAX_LENGTH = 500;

/** `POST backoffice/login`: an operator's sign-in (no two-factor yet, docs/BACKOFFICE.md). */
export const backofficeLoginBodySchema = z.object({
  username: usernameField(),
  password: currentPasswordField(),
});
export type BackofficeLoginBody = z.infer<typeof backofficeLoginBodySchema>;

export const operatorSchema = z.object({
  operatorID: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
});
export type Operator = z.infer<typeof operatorSchema>;

/**
 * The answer of the password step. An operator with two-factor gets `requireTwoFactor: true` and a
 * short-lived step token for `POST backoffice/login-2fa`; one without gets the session at once.
 */
export const backofficeLoginResponseSchema = z.object({
  requireTwoFactor: z.boolean(),
  token: z.string(),
  operator: operatorSchema.optional(),
});
export type BackofficeLoginResponse = z.infer<typeof backofficeLoginResponseSchema>;

/** `POST backoffice/login-2fa`: the step token and the six-digit TOTP code. */
export const backofficeLogin2faBodySchema = twoFactorStepBody();
export type BackofficeLogin2faBody = z.infer<typeof backofficeLogin2faBodySchema>;
export const backofficeLogin2faResponseSchema = z.object({ token: z.string(), operator: operatorSchema });
export type BackofficeLogin2faResponse = z.infer<typeof backofficeLogin2faResponseSchema>;

/** `GET backoffice/invoices/pending-decision`: the queue of the credit decision, oldest sent first. */
export const listPendingDecisionsQuerySchema = z.object(pageQueryShape);
export type ListPendingDecisionsQuery = z.input<typeof listPendingDecisionsQuerySchema>;

/** An invoice in state 9 (awaitingCreditDecision) of any issuer. Amounts in minor units of `currency`. */
export const pendingDecisionSchema = z.object({
  invoiceID: z.string(),
  invoiceNumber: z.string(),
  issuerID: z.string(),
  issuerName: z.string(),
  recipientName: z.string(),
  service: z.enum(SERVICE_TYPES),
  currency: z.string(),
  grossMinor: z.number().int(),
  toPayMinor: z.number().int(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  /** When the customer sent it (ISO 8601). */
  sentAt: z.string().nullable(),
});
export type PendingDecision = z.infer<typeof pendingDecisionSchema>;
export const listPendingDecisionsResponseSchema = pageSchema(pendingDecisionSchema);
export type ListPendingDecisionsResponse = z.infer<typeof listPendingDecisionsResponseSchema>;

/** `POST backoffice/invoices/:id/reject`: the reason is shown to the customer as written. */
export const rejectInvoiceBodySchema = z.object({
  reason: requiredText(REJECTION_REASON_MAX_LENGTH, { multiline: true }),
});
export type RejectInvoiceBody = z.infer<typeof rejectInvoiceBodySchema>;

/** The answer of approve and reject: where the invoice is now. */
export const creditDecisionResponseSchema = z.object({
  invoiceID: z.string(),
  state: z.number().int(),
  decision: z.enum(['approved', 'rejected']),
});
export type CreditDecisionResponse = z.infer<typeof creditDecisionResponseSchema>;
