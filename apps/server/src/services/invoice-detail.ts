import type { InvoiceDetail, InvoiceSummary, ServiceType } from '@portal/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  invoiceEvents,
  invoiceFiles,
  invoiceRows,
  invoices,
  invoiceTimeline,
  recipients,
  timelineOrder,
} from '../db/schema';
import { ApiError } from '../lib/errors';
import { timelineDetails } from './event-details';

/**
 * An invoice as the API answers it: its summary (lists) and its detail (rows, VAT, files, timeline).
 * The invoice routes, the invoice documents and the money-flow tests read invoices through here.
 */

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * The reason of the back office's rejection of a rejected invoice (the text of its latest rejected
 * event, 2), else null: a scalar subquery, looked up for the answer's rows only. Its columns are
 * written out with their tables: drizzle leaves them unqualified in a select of one table.
 */
export const rejectionReason = sql<string | null>`case when "invoices"."decision" = 'rejected' then (
  select e.details ->> 'reason' from ${invoiceEvents} e
  where e.invoice_id = "invoices"."id" and e.event = 2
  order by e.at desc, e.seq desc limit 1) end`;

export function summary(
  i: InvoiceRow,
  recipientName: string,
  today: string,
  reason: string | null,
): InvoiceSummary {
  return {
    invoiceID: i.id,
    invoiceNumber: i.invoiceNumber,
    recipientID: i.recipientId,
    recipientName,
    service: i.service as ServiceType,
    state: i.state,
    currency: i.currency,
    invoiceDate: i.invoiceDate,
    dueDate: i.dueDate,
    created: i.createdAt.toISOString(),
    ocr: i.ocr,
    grossMinor: i.grossMinor,
    toPayMinor: i.toPayMinor,
    remainingMinor: i.remainingMinor,
    overdue: (i.state === 2 || i.state === 3) && i.dueDate < today,
    decision: i.decision ?? null,
    rejectionReason: i.decision === 'rejected' ? reason : null,
  };
}

export async function loadDetail(
  db: Db | Tx,
  issuerId: string,
  id: string,
  today: string,
): Promise<InvoiceDetail> {
  const [detail] = await loadDetails(db, issuerId, [id], today);
  if (!detail) throw new ApiError('invoices.not_found');
  return detail;
}

/** Rows by their invoice, each group in the order of `items`. */
function groupByInvoice<T extends { invoiceId: string | null }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    if (item.invoiceId === null) continue;
    const group = groups.get(item.invoiceId);
    if (group) group.push(item);
    else groups.set(item.invoiceId, [item]);
  }
  return groups;
}

/**
 * The details of several invoices of one issuer in four queries, in the order of `ids` (which must not
 * repeat). Any id that is not the issuer's, or names nothing, answers `invoices.not_found` for all.
 */
export async function loadDetails(
  db: Db | Tx,
  issuerId: string,
  ids: readonly string[],
  today: string,
): Promise<InvoiceDetail[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ invoice: invoices, recipientName: recipients.name, rejectionReason })
    .from(invoices)
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(and(eq(invoices.issuerId, issuerId), inArray(invoices.id, [...ids])));
  if (found.length !== ids.length) throw new ApiError('invoices.not_found');
  const [rows, events, files] = await Promise.all([
    db
      .select()
      .from(invoiceRows)
      .where(inArray(invoiceRows.invoiceId, [...ids]))
      .orderBy(asc(invoiceRows.position)),
    // Stored events and the events of the payments applied to the invoices (migration 0017).
    db
      .select()
      .from(invoiceTimeline)
      .where(and(eq(invoiceTimeline.issuerId, issuerId), inArray(invoiceTimeline.invoiceId, [...ids])))
      .orderBy(...timelineOrder),
    db
      .select()
      .from(invoiceFiles)
      .where(and(eq(invoiceFiles.issuerId, issuerId), inArray(invoiceFiles.invoiceId, [...ids])))
      .orderBy(asc(invoiceFiles.createdAt)),
  ]);
  const byId = new Map(found.map((row) => [row.invoice.id, row]));
  const rowsOf = groupByInvoice(rows);
  const eventsOf = groupByInvoice(events);
  const filesOf = groupByInvoice(files);
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new ApiError('invoices.not_found');
    const i = row.invoice;
    return {
      ...summary(i, row.recipientName, today, row.rejectionReason),
      orderReference: i.orderReference,
      issuerContact: i.issuerContact,
      recipientContact: i.recipientContact,
      rows: (rowsOf.get(id) ?? []).map((r) => ({
        articleNumber: r.articleNumber,
        name: r.name,
        description: r.description,
        quantityMilli: r.quantityMilli,
        unit: r.unit as InvoiceDetail['rows'][number]['unit'],
        unitPriceMinor: r.unitPriceMinor,
        vatBasisPoints: r.vatBasisPoints,
        rotRut: r.rotRut,
        netMinor: r.netMinor,
      })),
      vat: i.vatLines,
      netMinor: i.netMinor,
      vatMinor: i.vatMinor,
      deductionMinor: i.deductionMinor,
      rotRut: i.rotRut ?? {
        type: 'none',
        personalNumber: '',
        propertyDesignation: '',
        housingCoopNumber: '',
      },
      files: (filesOf.get(id) ?? []).map((f) => ({
        fileID: f.id,
        role: f.role,
        filename: f.filename,
        size: f.size,
        sha256: f.sha256,
      })),
      events: (eventsOf.get(id) ?? []).map((e) => ({
        eventID: e.id,
        event: e.event,
        date: e.at.toISOString(),
        text: typeof e.details?.reason === 'string' ? e.details.reason : '',
        details: timelineDetails(e.details),
      })),
    };
  });
}
