import type { InvoiceDetail, InvoiceSummary, ServiceType } from '@portal/contracts';
import { isUnpaidState } from '@portal/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, lookupsOf, type Tx } from '../../db/client';
import { perDatabase } from '../../db/prepared';
import { invoiceFiles, invoiceRows, invoices, invoiceTimeline, recipients } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { timelineDetails } from '../../services/event-details';
import { rejectionReason } from './invoice-list.repository';

/**
 * An invoice as the API answers it: its summary (lists) and its detail (rows, VAT, files, timeline).
 * The invoice routes, the invoice documents and the money-flow tests read invoices through here.
 */

export type InvoiceRow = typeof invoices.$inferSelect;

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
    overdue: isUnpaidState(i.state) && i.dueDate < today,
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

/** A row of the invoice as the detail's JSON has it (`invoiceRowSchema`), built by the database. */
const rowsJson = sql<string>`(select coalesce(json_agg(json_build_object(
    'articleNumber', r.article_number, 'name', r.name, 'description', r.description,
    'quantityMilli', r.quantity_milli, 'unit', r.unit, 'unitPriceMinor', r.unit_price_minor,
    'vatBasisPoints', r.vat_basis_points, 'rotRut', r.rot_rut, 'netMinor', r.net_minor)
    order by r.position), '[]')::text
  from ${invoiceRows} r where r.invoice_id = "invoices"."id")`;

/** The timeline (stored events and the payments', migration 0017) in `timelineOrder`: [id, event, at, details]. */
const eventsJson = sql<string>`(select coalesce(json_agg(json_build_array(
    e.id, e.event, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), e.details)
    order by e.at, e.seq, e.sub), '[]')::text
  from ${invoiceTimeline} e where e.issuer_id = "invoices"."issuer_id" and e.invoice_id = "invoices"."id")`;

/** The invoice's files, oldest first (`invoiceFileSchema`). */
const filesJson = sql<string>`(select coalesce(json_agg(json_build_object(
    'fileID', f.id, 'role', f.role, 'filename', f.filename, 'size', f.size, 'sha256', f.sha256)
    order by f.created_at), '[]')::text
  from ${invoiceFiles} f where f.issuer_id = "invoices"."issuer_id" and f.invoice_id = "invoices"."id")`;

/** The columns of the detail's statement: the invoice, its recipient's name, rows, timeline and files. */
function selectDetails(db: Db | Tx) {
  return db
    .select({
      invoice: invoices,
      recipientName: recipients.name,
      rejectionReason,
      rows: rowsJson,
      events: eventsJson,
      files: filesJson,
    })
    .from(invoices)
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId));
}

/**
 * The statements of `loadDetails`, built once per database (or transaction) with placeholders: the
 * detail is a hot read, and building it with drizzle cost more than running it (db/prepared.ts).
 *
 * One invoice (the detail page) by its id: planned once per connection (db/client.ts `lookupsOf`).
 * Its id is compared with `=`, so even a plan made without the values reads the primary key alone:
 * with `id = any($ids)` such a plan expected ten ids and an average issuer, and ANDed the primary key
 * with the issuer's index, reading all 100,000 entries of the bench's big issuer for each detail.
 */
const detailQuery = perDatabase((db: Db | Tx) =>
  selectDetails(lookupsOf(db))
    .where(and(eq(invoices.issuerId, sql.placeholder('issuerId')), eq(invoices.id, sql.placeholder('id'))))
    .prepare('loadDetail'),
);

/** Several invoices by their ids: planned for its values on every call, on the main pool. */
const detailsQuery = perDatabase((db: Db | Tx) =>
  selectDetails(db)
    .where(
      and(
        eq(invoices.issuerId, sql.placeholder('issuerId')),
        sql`${invoices.id} = any(${sql.placeholder('ids')}::uuid[])`,
      ),
    )
    .prepare('loadDetails'),
);

/**
 * The details of several invoices of one issuer in one prepared statement (db/prepared.ts): the
 * invoice, its recipient's name, and its rows, timeline and files as JSON built by the database, in
 * the order of `ids` (which must not repeat). Any id that is not the issuer's, or names nothing,
 * answers `invoices.not_found` for all.
 */
export async function loadDetails(
  db: Db | Tx,
  issuerId: string,
  ids: readonly string[],
  today: string,
): Promise<InvoiceDetail[]> {
  if (ids.length === 0) return [];
  const found =
    ids.length === 1
      ? await detailQuery(db).execute({ issuerId, id: ids[0] })
      : await detailsQuery(db).execute({ issuerId, ids: [...ids] });
  if (found.length !== ids.length) throw new ApiError('invoices.not_found');
  const byId = new Map(found.map((row) => [row.invoice.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new ApiError('invoices.not_found');
    const i = row.invoice;
    return {
      ...summary(i, row.recipientName, today, row.rejectionReason),
      orderReference: i.orderReference,
      issuerContact: i.issuerContact,
      recipientContact: i.recipientContact,
      rows: JSON.parse(row.rows) as InvoiceDetail['rows'],
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
      files: JSON.parse(row.files) as InvoiceDetail['files'],
      events: (
        JSON.parse(row.events) as [string, number, string, Record<string, string | number> | null][]
      ).map(([eventID, event, date, details]) => ({
        eventID,
        event,
        date,
        text: typeof details?.reason === 'string' ? details.reason : '',
        details: timelineDetails(details),
      })),
    };
  });
}
