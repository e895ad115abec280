import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pageWithTotal } from '../../db/paging';
import {
  installmentPlans,
  invoices,
  issuers,
  payments,
  recipients,
  settlementRows,
  settlements,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';

/** The queries of the customer's money pages: transfer costs (settlements), the fee preview, the payments report. */

/** The created day of a settlement in Sweden, where the customer reads it. */
const createdDay = sql<string>`(${settlements.createdAt} at time zone 'Europe/Stockholm')::date::text`;

export type SettlementWithDay = typeof settlements.$inferSelect & { day: string };

/** The caller's settlement, or 404 `settlements.not_found` — also for another issuer's. */
export async function findOwnSettlement(db: Db, issuerId: string, id: string): Promise<SettlementWithDay> {
  const [found] = await db
    .select({ s: settlements, day: createdDay })
    .from(settlements)
    .where(and(eq(settlements.id, id), eq(settlements.issuerId, issuerId)));
  if (!found) throw new ApiError('settlements.not_found');
  return { ...found.s, day: found.day };
}

/** A page of the issuer's settlements, newest first, by created day (Swedish time). */
export async function listSettlements(
  db: Db,
  issuerId: string,
  q: { page: number; pageSize: number; from?: string | undefined; to?: string | undefined },
): Promise<{ items: SettlementWithDay[]; total: number }> {
  const where = and(
    eq(settlements.issuerId, issuerId),
    q.from ? sql`${createdDay} >= ${q.from}` : undefined,
    q.to ? sql`${createdDay} <= ${q.to}` : undefined,
  );
  const ordered = db
    .select({ s: settlements, day: createdDay })
    .from(settlements)
    .where(where)
    .orderBy(desc(settlements.createdAt), desc(settlements.number))
    .$dynamic();
  const { rows, total } = await pageWithTotal(db, ordered, settlements, where, q);
  return { items: rows.map((f) => ({ ...f.s, day: f.day })), total };
}

/**
 * A settlement's row with what it is about: its invoice's number and recipient, or for a plan's
 * payout the plan's loan number and buyer (docs/INSTALLMENTS.md "Money"); a deduction's row also the
 * payer's reference (and when that names no invoice, nothing else: number and recipient are blank).
 */
function settlementRowsWithSubject(db: Db) {
  return db
    .select({
      row: settlementRows,
      invoiceNumber: sql<string>`coalesce(${invoices.invoiceNumber}, ${installmentPlans.loanNumber}, '')`,
      ocr: invoices.ocr,
      recipientName: sql<string>`coalesce(${recipients.name}, '')`,
      deductionReference: sql<
        string | null
      >`case when ${settlementRows.kind} = 'deduction' then ${payments.reference} end`,
    })
    .from(settlementRows)
    .leftJoin(invoices, eq(invoices.id, settlementRows.invoiceId))
    .leftJoin(installmentPlans, eq(installmentPlans.id, settlementRows.planId))
    .leftJoin(
      recipients,
      eq(recipients.id, sql`coalesce(${invoices.recipientId}, ${installmentPlans.recipientId})`),
    )
    .leftJoin(payments, eq(payments.id, settlementRows.paymentId));
}

/** A page of a settlement's rows in their order, with the invoice's (or plan's) number and recipient. */
export function listSettlementRows(db: Db, settlementId: string, page: number, pageSize: number) {
  return settlementRowsWithSubject(db)
    .where(eq(settlementRows.settlementId, settlementId))
    .orderBy(asc(settlementRows.position))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** Every row of a settlement with its invoice's reference, or its plan's loan number (the BGMAX file). */
export function listSettlementReferences(db: Db, settlementId: string) {
  return settlementRowsWithSubject(db)
    .where(eq(settlementRows.settlementId, settlementId))
    .orderBy(asc(settlementRows.position));
}

export async function findCollectionBankgiro(db: Db, issuerId: string): Promise<string | null> {
  const [issuer] = await db
    .select({ collectionBankgiro: issuers.collectionBankgiro })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return issuer?.collectionBankgiro ?? null;
}

/** The issuer's invoices of `ids` (others' are not there). */
export function listOwnInvoices(db: Db, issuerId: string, ids: string[]) {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), inArray(invoices.id, ids)));
}

export interface PaymentsFilter {
  from: string;
  to: string;
  recipientID?: string | undefined;
  invoiceNumber?: string | undefined;
}

/**
 * The payments of the report: applied to the issuer's invoices, and the deductions resolved on one of
 * them (docs/MONEY.md "Deductions (TK21)"), in the date range and filters.
 */
function paymentsWhere(issuerId: string, q: PaymentsFilter): SQL | undefined {
  return and(
    eq(payments.issuerId, issuerId),
    or(
      inArray(payments.status, ['matched', 'assigned']),
      and(eq(payments.status, 'deduction'), isNotNull(payments.deductionAction)),
    ),
    gte(payments.paymentDate, q.from),
    lte(payments.paymentDate, q.to),
    q.recipientID ? eq(invoices.recipientId, q.recipientID) : undefined,
    q.invoiceNumber
      ? ilike(invoices.invoiceNumber, `${q.invoiceNumber.replace(/[\\%_]/g, '\\$&')}%`)
      : undefined,
  );
}

const paymentColumns = { p: payments, invoiceNumber: invoices.invoiceNumber, recipientName: recipients.name };

export interface PaymentFound {
  p: typeof payments.$inferSelect;
  invoiceNumber: string;
  recipientName: string;
}

function selectPayments(db: Db) {
  return db
    .select(paymentColumns)
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId));
}

/** A page of the report, newest payment first, and the count and sum per currency of all that match. */
export async function listPayments(
  db: Db,
  issuerId: string,
  q: PaymentsFilter & { page: number; pageSize: number },
) {
  const where = paymentsWhere(issuerId, q);
  const [found, sums] = await Promise.all([
    selectPayments(db)
      .where(where)
      .orderBy(desc(payments.paymentDate), desc(payments.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({
        currency: payments.currency,
        count: count(),
        amountMinor: sql<string>`coalesce(sum(${payments.amountMinor}), 0)::text`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(where)
      .groupBy(payments.currency)
      .orderBy(asc(payments.currency)),
  ]);
  return { found, sums };
}

/** Rows of the export read at a time: the file streams out while the next ones are read. */
export const PAYMENTS_EXPORT_BATCH = 2_000;

/** The next batch of the export after `after` (keyset on date and id, newest first). */
export function listPaymentsAfter(
  db: Db,
  issuerId: string,
  q: PaymentsFilter,
  after: { date: string; id: string } | null,
): Promise<PaymentFound[]> {
  return selectPayments(db)
    .where(
      and(
        paymentsWhere(issuerId, q),
        after
          ? sql`(${payments.paymentDate}, ${payments.id}) < (${after.date}::date, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(payments.paymentDate), desc(payments.id))
    .limit(PAYMENTS_EXPORT_BATCH);
}
