import { RECOURSE_SERVICES } from '@portal/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, issuers, recipients } from '../../db/schema';

/** The queries of the reports: each names the issuer, so another issuer's invoices are never read. */

/** Active invoices: not paid (2) and partly paid (3), spec §4. */
const ACTIVE_STATES = [2, 3];

const activeColumns = {
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  invoiceDate: invoices.invoiceDate,
  dueDate: invoices.dueDate,
  service: invoices.service,
  state: invoices.state,
  currency: invoices.currency,
  ocr: invoices.ocr,
  toPayMinor: invoices.toPayMinor,
  remainingMinor: invoices.remainingMinor,
  recipientName: recipients.name,
  organizationNumber: recipients.organizationNumber,
};

/** Where a keyset page of the active invoices starts: after this (invoice date, id). */
export interface ActiveAfter {
  date: string;
  id: string;
}

/**
 * One keyset page of the issuer's active invoices over (invoice_date, id), which the issuer/date index
 * serves in order: memory stays one batch whatever the number of invoices.
 */
export function activeInvoicesPage(db: Db, issuerId: string, after: ActiveAfter | null, limit: number) {
  return db
    .select(activeColumns)
    .from(invoices)
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(
      and(
        eq(invoices.issuerId, issuerId),
        inArray(invoices.state, ACTIVE_STATES),
        after
          ? sql`(${invoices.invoiceDate}, ${invoices.id}) > (${after.date}::date, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(invoices.invoiceDate), asc(invoices.id))
    .limit(limit);
}

/** The issuer's active invoices of recourse services whose recourse date falls in [from, to]. */
export function activeRegressRows(db: Db, issuerId: string, from: string, to: string) {
  const recourseDay = sql`(${invoices.dueDate} + ${issuers.recourseDays})`;
  return db
    .select({ ...activeColumns, recourseDays: issuers.recourseDays })
    .from(invoices)
    .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(
      and(
        eq(invoices.issuerId, issuerId),
        inArray(invoices.state, ACTIVE_STATES),
        inArray(invoices.service, [...RECOURSE_SERVICES]),
        sql`${recourseDay} >= ${from}::date`,
        sql`${recourseDay} <= ${to}::date`,
      ),
    )
    .orderBy(asc(recourseDay), asc(invoices.invoiceNumber));
}
