import type { issuerFeeSchema } from '@portal/contracts';
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { pageOfRows } from '../../db/paging';
import { issuerFees, issuers, payments } from '../../db/schema';

type IssuerFee = z.output<typeof issuerFeeSchema>;

/** The queries of the back office's money routes: unmatched payments and issuers' fees. */

/**
 * One page of the payments no invoice claimed (or, `information`, of the zero amounts kept as
 * information), oldest first: each status has its partial index on the time.
 */
export async function listUnmatchedPayments(
  db: Db,
  status: 'unmatched' | 'information',
  page: number,
  pageSize: number,
) {
  const order = [asc(payments.createdAt), asc(payments.id)];
  const where = eq(payments.status, status);
  const { rows: found, total } = await pageOfRows(db, payments, where, order, { page, pageSize });
  return { found, total };
}

/** The issuer's days before an open debt is claimed; undefined for no such issuer. */
export async function debtClaimDaysOf(db: Db | Tx, issuerId: string): Promise<number | undefined> {
  const [issuer] = await db
    .select({ days: issuers.debtClaimDays })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return issuer?.days;
}

export async function setDebtClaimDays(tx: Tx, issuerId: string, days: number): Promise<void> {
  await tx.update(issuers).set({ debtClaimDays: days }).where(eq(issuers.id, issuerId));
}

/** The issuer's fees, by service and currency. */
export function feesOf(db: Db, issuerId: string) {
  return db
    .select()
    .from(issuerFees)
    .where(eq(issuerFees.issuerId, issuerId))
    .orderBy(asc(issuerFees.service), asc(issuerFees.currency));
}

/** Replaces the issuer's fees. */
export async function replaceFees(tx: Tx, issuerId: string, fees: IssuerFee[], now: Date): Promise<void> {
  await tx.delete(issuerFees).where(eq(issuerFees.issuerId, issuerId));
  if (fees.length > 0)
    await tx.insert(issuerFees).values(fees.map((f) => ({ issuerId, ...f, updatedAt: now })));
}
