import { INVOICE_STATE } from '@portal/contracts';
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { invoices, issuers, operatorSessions, operators, recipients } from '../../db/schema';

/** The queries of the back office: operators' sign-in steps and the invoices awaiting our decision. */

export type OperatorRow = typeof operators.$inferSelect;

/** The operator of a username, whatever its case. */
export async function findOperatorByUsername(db: Db, username: string): Promise<OperatorRow | undefined> {
  const [operator] = await db
    .select()
    .from(operators)
    .where(sql`lower(${operators.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return operator;
}

/** The live first sign-in step of `tokenHash`, locked until the transaction ends. */
export async function lockTwoFactorStep(tx: Tx, tokenHash: string, now: Date) {
  const [step] = await tx
    .select()
    .from(operatorSessions)
    .where(
      and(
        eq(operatorSessions.tokenHash, tokenHash),
        eq(operatorSessions.kind, 'two_factor_step'),
        isNull(operatorSessions.revokedAt),
        gt(operatorSessions.expiresAt, now),
      ),
    )
    .for('update')
    .limit(1);
  return step;
}

export async function lockOperator(tx: Tx, operatorId: string): Promise<OperatorRow | undefined> {
  const [operator] = await tx
    .select()
    .from(operators)
    .where(eq(operators.id, operatorId))
    .for('update')
    .limit(1);
  return operator;
}

/** A wrong code on a sign-in step: counted, and the step revoked when `revokedAt` is given. */
export async function countTwoFactorFailure(
  tx: Tx,
  stepId: string,
  failedAttempts: number,
  revokedAt: Date | null,
): Promise<void> {
  await tx.update(operatorSessions).set({ failedAttempts, revokedAt }).where(eq(operatorSessions.id, stepId));
}

export async function setTotpLastStep(tx: Tx, operatorId: string, totpLastStep: number): Promise<void> {
  await tx.update(operators).set({ totpLastStep }).where(eq(operators.id, operatorId));
}

/** One page of every issuer's invoices awaiting our credit decision (state 9), oldest sent first. */
export async function listPendingDecisions(db: Db, page: number, pageSize: number) {
  const awaiting = eq(invoices.state, INVOICE_STATE.awaitingCreditDecision);
  const [rows, [total]] = await Promise.all([
    db
      .select({ invoice: invoices, issuerName: issuers.name, recipientName: recipients.name })
      .from(invoices)
      .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
      .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
      .where(awaiting)
      .orderBy(asc(invoices.sentAt), asc(invoices.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(invoices).where(awaiting),
  ]);
  return { rows, total: total?.n ?? 0 };
}
