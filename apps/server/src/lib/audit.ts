import type { Db, Tx } from '../db/client';
import { auditLog } from '../db/schema';

export type AuditEvent =
  | 'login.ok'
  | 'login.failed'
  | 'login.throttled'
  | 'login.two_factor_step'
  | 'login.two_factor_failed'
  | 'logout'
  | 'password.changed'
  | 'password.change_failed'
  | 'password.reset_requested'
  | 'password.reset'
  | 'two_factor.setup_started'
  | 'two_factor.setup_cancelled'
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  | 'two_factor.disable_failed'
  | 'issuer.updated'
  | 'bank_verification.started'
  | 'bank_verification.verified'
  | 'bank_verification.failed'
  | 'bank_verification.replayed'
  | 'bank_verification.rejected'
  | 'bank_verification.confirmation_required'
  | 'bank_verification.confirm_failed'
  | 'bank_verification.account_changed'
  | 'fortnox.connected'
  | 'fortnox.disconnected'
  | 'fortnox.declined'
  | 'fortnox.rejected'
  | 'backoffice.login.ok'
  | 'backoffice.login.failed'
  | 'backoffice.login.throttled'
  | 'backoffice.login.two_factor_step'
  | 'backoffice.login.two_factor_failed'
  | 'backoffice.login.two_factor_missing'
  | 'backoffice.logout'
  | 'backoffice.invoice.approved'
  | 'backoffice.invoice.rejected'
  | 'backoffice.payment.assigned'
  | 'backoffice.deduction.resolved'
  | 'backoffice.payments.imported'
  | 'backoffice.payout'
  | 'backoffice.daily_job'
  | 'backoffice.debt_claims'
  | 'backoffice.fees.updated'
  | 'operator.created'
  | 'operator.deactivated'
  | 'operator.activated'
  | 'operator.password_reset'
  | 'operator.two_factor_enabled'
  | 'operator.two_factor_disabled';

export async function audit(
  db: Db | Tx,
  event: AuditEvent,
  fields: {
    userId?: string | null;
    operatorId?: string | null;
    issuerId?: string | null;
    username?: string | null;
    ip?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditLog).values({ event, ...fields });
}

/**
 * Audits an event an operator did (their id and username, their address), with the issuer it concerns
 * and its details where it has them.
 */
export function auditOperator(
  db: Db | Tx,
  event: AuditEvent,
  operator: { operatorId: string; username: string },
  ip: string | null | undefined,
  more: { issuerId?: string; details?: Record<string, unknown> } = {},
): Promise<void> {
  return audit(db, event, { operatorId: operator.operatorId, username: operator.username, ip, ...more });
}

/** The signed-in user an action is done for, as the audit log names them. */
export interface Caller {
  userId: string;
  issuerId: string;
  username: string;
  ip: string | null;
}

/** Audits an event of a signed-in caller (its user, issuer, name and address), with its details. */
export function auditCaller(
  db: Db | Tx,
  event: AuditEvent,
  caller: Caller,
  details?: Record<string, unknown>,
): Promise<void> {
  const { userId, issuerId, username, ip } = caller;
  return audit(db, event, { userId, issuerId, username, ip, details });
}
