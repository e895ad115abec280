import type {
  backofficeLogin2faBodySchema,
  listPendingDecisionsQuerySchema,
  Operator,
  ServiceType,
} from '@portal/contracts';
import type { z } from 'zod';
import type { AppContext, OperatorContext } from '../../context';
import type { Db } from '../../db/client';
import { audit, auditOperator } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { revokeOperatorSession } from '../../services/operator-sessions';
import {
  type Client,
  checkPassword,
  completeSecondStep,
  OPERATOR,
  openSession,
  startSecondStep,
} from '../../services/sign-in';
import { decideCredit } from '../invoices/invoices.service';
import * as repo from './backoffice.repository';

/**
 * The back office (docs/BACKOFFICE.md): operators sign in (throttled like customers, two-factor when
 * they have it or BACKOFFICE_TWO_FACTOR requires it) and decide the credit of sent invoices.
 */

/** An operator as the sign-in answers show it. */
function operatorView(o: { id: string; username: string; name: string; email: string }): Operator {
  return { operatorID: o.id, username: o.username, name: o.name, email: o.email };
}

/** `backofficeLogin`: an operator session, or a first step when the operator has two-factor on. */
export async function backofficeLogin(
  ctx: AppContext,
  body: { username: string; password: string },
  client: Client,
) {
  const operator = await checkPassword(ctx, OPERATOR, body, client.ip);
  const step = await startSecondStep(ctx, OPERATOR, operator, client);
  if (step !== null) return { requireTwoFactor: true, token: step };
  if (ctx.config.backofficeTwoFactorRequired) {
    await audit(ctx.db, 'backoffice.login.two_factor_missing', {
      ...OPERATOR.who(operator),
      ip: client.ip,
    });
    throw new ApiError('auth.setup_required');
  }
  const token = await openSession(ctx, OPERATOR, operator, client);
  return { requireTwoFactor: false, token, operator: operatorView(operator) };
}

/** `backofficeLogin2fa`: the step token and a code (services/sign-in.ts). */
export async function backofficeLogin2fa(
  ctx: AppContext,
  body: z.output<typeof backofficeLogin2faBodySchema>,
  client: Client,
) {
  const { token, account } = await completeSecondStep(ctx, OPERATOR, body, client);
  return { token, operator: operatorView(account) };
}

/** `backofficeLogout`: this operator session ends. */
export async function backofficeLogout(
  ctx: AppContext,
  operator: OperatorContext,
  ip: string,
): Promise<void> {
  await revokeOperatorSession(ctx.db, operator.sessionId, ctx.now());
  await auditOperator(ctx.db, 'backoffice.logout', operator, ip);
}

/** `listPendingDecisions`: every issuer's invoices awaiting our credit decision (state 9). */
export async function listPendingDecisions(db: Db, query: z.output<typeof listPendingDecisionsQuerySchema>) {
  const { page, pageSize } = query;
  const { rows, total } = await repo.listPendingDecisions(db, page, pageSize);
  return {
    items: rows.map(({ invoice: i, issuerName, recipientName }) => ({
      invoiceID: i.id,
      invoiceNumber: i.invoiceNumber,
      issuerID: i.issuerId,
      issuerName,
      recipientName,
      service: i.service as ServiceType,
      currency: i.currency,
      grossMinor: i.grossMinor,
      toPayMinor: i.toPayMinor,
      invoiceDate: i.invoiceDate,
      dueDate: i.dueDate,
      sentAt: i.sentAt?.toISOString() ?? null,
    })),
    total,
    page,
    pageSize,
  };
}

/** The operator's credit decision on an invoice in state 9 (invoices.service.ts, decideCredit). */
export function decideInvoiceCredit(
  ctx: AppContext,
  operator: OperatorContext,
  invoiceId: string,
  choice: Parameters<typeof decideCredit>[3],
  ip: string,
) {
  return decideCredit(ctx.db, operator, invoiceId, choice, ctx.now(), ip);
}
