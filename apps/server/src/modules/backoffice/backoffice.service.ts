import {
  type backofficeLogin2faBodySchema,
  type listPendingDecisionsQuerySchema,
  type Operator,
  type ServiceType,
  TWO_FACTOR_STEP_MAX_ATTEMPTS,
} from '@portal/contracts';
import type { z } from 'zod';
import type { AppContext, OperatorContext } from '../../context';
import type { Db } from '../../db/client';
import { audit } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { burnPasswordCheck, verifyPassword } from '../../lib/passwords';
import { hashToken, unseal } from '../../lib/tokens';
import { verifyTotp } from '../../lib/totp';
import { createOperatorSession, revokeOperatorSession } from '../../services/operator-sessions';
import { claimSignIn, clearFailures, refundAttempt } from '../../services/throttle';
import { decideCredit } from '../invoices/invoices.service';
import * as repo from './backoffice.repository';

/**
 * The back office (docs/BACKOFFICE.md): operators sign in (throttled like customers, two-factor when
 * they have it or BACKOFFICE_TWO_FACTOR requires it) and decide the credit of sent invoices.
 */

/** Who is calling: written to the session row and the audit log. */
export interface Client {
  ip: string;
  userAgent?: string;
}

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
  const { username, password } = body;
  const { ip } = client;
  const now = ctx.now();
  const claim = await claimSignIn(ctx.db, ctx.throttle, username, ip, now, 'operator');
  if (claim.wait > 0) {
    await audit(ctx.db, 'backoffice.login.throttled', { username, ip });
    throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
  }
  const operator = await repo.findOperatorByUsername(ctx.db, username);
  const ok = operator?.active ? await verifyPassword(operator.passwordHash, password) : false;
  if (!operator?.active) await burnPasswordCheck(password);
  if (!operator || !ok) {
    await audit(ctx.db, 'backoffice.login.failed', { operatorId: operator?.id, username, ip });
    throw new ApiError('auth.invalid_credentials');
  }
  await refundAttempt(ctx.db, claim);
  await clearFailures(ctx.db, username, ctx.throttle, now, 'operator');
  const who = { operatorId: operator.id, username: operator.username, ip };
  if (operator.totpSecret !== null) {
    const step = await createOperatorSession(ctx.db, operator.id, now, client, 'two_factor_step');
    await audit(ctx.db, 'backoffice.login.two_factor_step', who);
    return { requireTwoFactor: true, token: step };
  }
  if (ctx.config.backofficeTwoFactorRequired) {
    await audit(ctx.db, 'backoffice.login.two_factor_missing', who);
    throw new ApiError('auth.setup_required');
  }
  const token = await createOperatorSession(ctx.db, operator.id, now, client);
  await audit(ctx.db, 'backoffice.login.ok', who);
  return { requireTwoFactor: false, token, operator: operatorView(operator) };
}

/**
 * `backofficeLogin2fa`: the step token and a code; a wrong code is counted on the step (revoked after
 * TWO_FACTOR_STEP_MAX_ATTEMPTS) and a code is never accepted twice.
 */
export async function backofficeLogin2fa(
  ctx: AppContext,
  body: z.output<typeof backofficeLogin2faBodySchema>,
  client: Client,
) {
  const now = ctx.now();
  const { ip } = client;
  const result = await ctx.db.transaction(async (tx) => {
    const step = await repo.lockTwoFactorStep(tx, hashToken(body.token), now);
    if (!step) throw new ApiError('auth.two_factor_token_expired');
    const operator = await repo.lockOperator(tx, step.operatorId);
    if (!operator?.active || operator.totpSecret === null)
      throw new ApiError('auth.two_factor_token_expired');
    const secret = unseal(ctx.config.secretKey, operator.totpSecret);
    const matched = verifyTotp(secret, body.code, now.getTime(), operator.totpLastStep);
    if (matched === null) {
      const attempts = step.failedAttempts + 1;
      await repo.countTwoFactorFailure(
        tx,
        step.id,
        attempts,
        attempts >= TWO_FACTOR_STEP_MAX_ATTEMPTS ? now : null,
      );
      await audit(tx, 'backoffice.login.two_factor_failed', {
        operatorId: operator.id,
        username: operator.username,
        ip,
        details: { attempts },
      });
      // The failed attempt is kept although the answer is an error: commit first, then answer.
      return { error: new ApiError('auth.invalid_code') } as const;
    }
    await repo.setTotpLastStep(tx, operator.id, matched);
    await revokeOperatorSession(tx, step.id, now);
    const token = await createOperatorSession(tx, operator.id, now, client);
    await audit(tx, 'backoffice.login.ok', {
      operatorId: operator.id,
      username: operator.username,
      ip,
      details: { twoFactor: true },
    });
    return { token, operator: operatorView(operator) };
  });
  if ('error' in result) throw result.error;
  return result;
}

/** `backofficeLogout`: this operator session ends. */
export async function backofficeLogout(
  ctx: AppContext,
  operator: OperatorContext,
  ip: string,
): Promise<void> {
  await revokeOperatorSession(ctx.db, operator.sessionId, ctx.now());
  await audit(ctx.db, 'backoffice.logout', {
    operatorId: operator.operatorId,
    username: operator.username,
    ip,
  });
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
