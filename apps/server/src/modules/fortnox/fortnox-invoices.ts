import { createHash, randomUUID } from 'node:crypto';
import {
  documentLanguageForCountry,
  FORTNOX_PAGE_SIZE,
  type InvoiceBody,
  invoiceBodySchema,
  type ListFortnoxInvoicesResponse,
  type PendingInvoice,
  type ServiceType,
  sendDueDateCode,
  type TakeOverFortnoxInvoicesResponse,
  type Unit,
} from '@portal/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { invoiceEvents, invoices, recipients } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { todayIn } from '../../lib/today';
import { type FileStore, fileStoreOf } from '../../services/file-store';
import { issuerIdentity } from '../../services/users';
import { rejectionReason, summary, writeInvoice } from '../invoices/invoices.service';
import { decimalToScaled, type FortnoxApi, FortnoxError, type FortnoxInvoice } from './fortnox.client';
import {
  findConnection,
  findRecipientByNumber,
  insertInvoiceFile,
  insertRecipient,
  insertTakenOver,
  markSource,
  takenOver,
} from './fortnox.repository';
import { apiOf, type Caller, failureOf, type Log, requireSetting } from './fortnox-connection';

/**
 * One page of the company's unpaid invoices, as Fortnox pages them (`filter=unpaid`, page size
 * FORTNOX_PAGE_SIZE), each with whether it can be sent; those already sent to us are left out.
 */
export async function listFortnoxInvoices(
  ctx: AppContext,
  caller: Caller,
  page: number,
  log: Log,
): Promise<ListFortnoxInvoicesResponse> {
  await requireSetting(ctx.db, caller.userId);
  const api = await apiOf(ctx, caller.issuerId);
  const connection = await findConnection(ctx.db, caller.issuerId);
  let result: Awaited<ReturnType<FortnoxApi['listInvoices']>>;
  try {
    result = await api.listInvoices({ filter: 'unpaid', page, limit: FORTNOX_PAGE_SIZE });
  } catch (err) {
    throw failureOf(err, log, 'list');
  }
  const taken = await takenOver(
    ctx.db,
    caller.issuerId,
    connection?.companyOrgNo ?? '',
    result.invoices.map((i) => i.DocumentNumber),
  );
  const byNumber = new Map(taken.map((t) => [t.documentNumber, t]));
  const today = todayIn(ctx.now());
  let hiddenSent = 0;
  const items: ListFortnoxInvoicesResponse['items'] = [];
  for (const inv of result.invoices) {
    const ours = byNumber.get(inv.DocumentNumber);
    if (ours && (ours.state !== 1 || ours.issuerId !== caller.issuerId)) {
      hiddenSent++;
      continue;
    }
    const totalMinor = decimalToScaled(inv.Total, 2) ?? 0;
    const balanceMinor = decimalToScaled(inv.Balance, 2) ?? 0;
    const due = sendDueDateCode('factoring', inv.DueDate, today);
    const status = ours
      ? 'pending'
      : inv.NoxFinans
        ? 'noxfinans'
        : !inv.Booked
          ? 'not_booked'
          : balanceMinor !== totalMinor
            ? 'part_paid'
            : due === 'invoices.due_date_passed'
              ? 'due_passed'
              : due === 'invoices.due_date_too_soon'
                ? 'due_too_soon'
                : 'available';
    items.push({
      documentNumber: inv.DocumentNumber,
      customerNumber: inv.CustomerNumber,
      customerName: inv.CustomerName,
      invoiceDate: inv.InvoiceDate,
      dueDate: inv.DueDate,
      currency: inv.Currency,
      totalMinor,
      balanceMinor,
      ocr: inv.OCR,
      status,
      invoiceID: ours?.invoiceId ?? null,
    });
  }
  return {
    page: result.currentPage,
    totalPages: result.totalPages,
    total: result.totalResources,
    hiddenSent,
    items,
  };
}

/** The service of the invoices taken over from Fortnox: factoring (the invoice is sold to us). */
const BUSINESS_SERVICE: ServiceType = 'factoring';

/** Fortnox's units as ours (spec §3 units st, h, km, pack, utl); another unit is refused, not guessed. */
const UNIT_OF: Record<string, Unit> = {
  st: 'st',
  styck: 'st',
  h: 'h',
  tim: 'h',
  timme: 'h',
  timmar: 'h',
  km: 'km',
  pack: 'pack',
  pkt: 'pack',
  paket: 'pack',
  utl: 'utl',
  utlägg: 'utl',
};

type Mapped = { ok: true; body: InvoiceBody & { rows: unknown[] } } | { ok: false };

/**
 * The Fortnox invoice as our invoice body, exactly: rows with their quantity (thousandths), price
 * (öre) and VAT rate; what our invoice cannot hold exactly (prices incl. VAT, discounts, rounding,
 * freight or fees, ROT/RUT) is refused rather than changed. The totals are compared afterwards.
 */
function mapInvoice(inv: FortnoxInvoice, recipientID: string): Mapped {
  if (
    inv.VATIncluded ||
    inv.HouseWork ||
    (decimalToScaled(inv.RoundOff ?? 0, 2) ?? 1) !== 0 ||
    (decimalToScaled(inv.Freight ?? 0, 2) ?? 1) !== 0 ||
    (decimalToScaled(inv.AdministrationFee ?? 0, 2) ?? 1) !== 0
  )
    return { ok: false };
  const rows = [];
  for (const r of inv.InvoiceRows) {
    // A text row (no price, no quantity) carries no amount: Fortnox prints it, our rows cannot hold it.
    const quantityMilli = decimalToScaled(r.DeliveredQuantity, 3);
    const unitPriceMinor = decimalToScaled(r.Price, 2);
    const vat = decimalToScaled(r.VAT, 2);
    const unit = UNIT_OF[(r.Unit || 'st').toLowerCase()];
    if (
      !unit ||
      quantityMilli === null ||
      unitPriceMinor === null ||
      vat === null ||
      (decimalToScaled(r.Discount ?? 0, 2) ?? 1) !== 0 ||
      r.HouseWork
    )
      return { ok: false };
    rows.push({
      articleNumber: (r.ArticleNumber ?? '').slice(0, 50),
      name: (r.Description || r.ArticleNumber || '-').slice(0, 100),
      description: '',
      quantityMilli,
      unit,
      unitPriceMinor,
      vatBasisPoints: vat,
      rotRut: false,
    });
  }
  return {
    ok: true,
    body: {
      recipientID,
      invoiceNumber: inv.DocumentNumber,
      service: BUSINESS_SERVICE,
      currency: inv.Currency,
      invoiceDate: inv.InvoiceDate,
      dueDate: inv.DueDate,
      orderReference: (inv.YourOrderNumber ?? '').slice(0, 50),
      issuerContact: (inv.OurReference ?? '').slice(0, 50),
      recipientContact: (inv.YourReference ?? '').slice(0, 50),
      rows,
    },
  };
}

type Result = TakeOverFortnoxInvoicesResponse['results'][number];

/**
 * Takes the chosen Fortnox invoices over as pending invoices of ours (idempotent: one already taken
 * over answers its pending invoice), each in its own transaction with its recipient (matched by
 * organisation number, else added from Fortnox's customer) and its PDF as the invoice's own PDF. The
 * answer lists the pending invoices for the send confirmation of `/invoice/send`.
 */
export async function takeOverFortnoxInvoices(
  ctx: AppContext,
  caller: Caller,
  documentNumbers: string[],
  log: Log,
): Promise<TakeOverFortnoxInvoicesResponse> {
  await requireSetting(ctx.db, caller.userId);
  const api = await apiOf(ctx, caller.issuerId);
  const connection = await findConnection(ctx.db, caller.issuerId);
  const issuer = await issuerIdentity(ctx.db, caller.issuerId);
  if (!connection || !issuer) throw new ApiError('fortnox.not_connected');
  const files = fileStoreOf(ctx);
  const results: Result[] = [];
  for (const documentNumber of [...new Set(documentNumbers)]) {
    const fail = (code: NonNullable<Result['code']>): Result => ({
      documentNumber,
      ok: false,
      invoiceID: null,
      code,
    });
    const [existing] = await takenOver(ctx.db, caller.issuerId, connection.companyOrgNo, [documentNumber]);
    if (existing) {
      results.push(
        existing.issuerId === caller.issuerId && existing.state === 1
          ? { documentNumber, ok: true, invoiceID: existing.invoiceId, code: null }
          : fail('fortnox.already_sent'),
      );
      continue;
    }
    let inv: FortnoxInvoice;
    try {
      inv = await api.getInvoice(documentNumber);
    } catch (err) {
      if (err instanceof FortnoxError && err.failure === 'not_found') {
        results.push(fail('fortnox.invoice_not_found'));
        continue;
      }
      throw failureOf(err, log, 'invoice');
    }
    const totalMinor = decimalToScaled(inv.Total, 2);
    if (
      inv.Cancelled ||
      inv.Credit === 'true' ||
      inv.NoxFinans ||
      !inv.Booked ||
      totalMinor === null ||
      totalMinor <= 0 ||
      decimalToScaled(inv.Balance, 2) !== totalMinor
    ) {
      results.push(fail('fortnox.invoice_unavailable'));
      continue;
    }
    try {
      const customer = await api.getCustomer(inv.CustomerNumber);
      const pdf = await api.getInvoicePdf(documentNumber);
      results.push(
        await takeOverOne(ctx, caller, files, {
          inv,
          totalMinor,
          customer,
          pdf,
          companyOrgNo: connection.companyOrgNo,
          country: issuer.country,
        }),
      );
    } catch (err) {
      throw failureOf(err, log, 'take_over');
    }
  }
  const ids = results.flatMap((r) => (r.ok && r.invoiceID ? [r.invoiceID] : []));
  return { results, invoices: await pendingInvoices(ctx.db, caller.issuerId, ids, todayIn(ctx.now())) };
}

async function takeOverOne(
  ctx: AppContext,
  caller: Caller,
  files: FileStore,
  input: {
    inv: FortnoxInvoice;
    totalMinor: number;
    customer: Awaited<ReturnType<FortnoxApi['getCustomer']>>;
    pdf: Buffer;
    companyOrgNo: string;
    country: 'SE' | 'FI';
  },
): Promise<Result> {
  const { inv, customer, pdf } = input;
  const documentNumber = inv.DocumentNumber;
  const now = ctx.now();
  // Bytes first, then the rows: a failure in between leaves an unreferenced blob, never a row without bytes.
  const storageKey = randomUUID();
  await files.put(storageKey, pdf);
  try {
    return await ctx.db.transaction(async (tx) => {
      const organizationNumber = customer.OrganisationNumber || inv.OrganisationNumber || '';
      const found = await findRecipientByNumber(tx, caller.issuerId, organizationNumber);
      const country = (customer.CountryCode || 'SE').toUpperCase().slice(0, 2);
      const recipientId =
        found?.id ??
        (await insertRecipient(tx, {
          issuerId: caller.issuerId,
          name: (customer.Name || inv.CustomerName).slice(0, 45),
          address: customer.Address1 ?? '',
          address2: customer.Address2 ?? '',
          zipcode: customer.ZipCode ?? '',
          city: customer.City ?? '',
          country,
          email: customer.Email ?? '',
          phone: customer.Phone1 ?? '',
          organizationNumber,
          vat: customer.VATNumber ?? '',
          documentLanguage: documentLanguageForCountry(country === 'FI' ? 'FI' : 'SE'),
        }));
      const mapped = mapInvoice(inv, recipientId);
      if (!mapped.ok) throw new Unsupported();
      const fileId = await insertInvoiceFile(tx, {
        issuerId: caller.issuerId,
        role: 'invoice',
        filename: `Faktura ${documentNumber}.pdf`,
        contentType: 'application/pdf',
        size: pdf.length,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        storageKey,
        uploadedBy: caller.userId,
      });
      // The register rules of the contract first (limits, total bounds): what fails them is not taken over.
      const body = invoiceBodySchema.safeParse({ ...mapped.body, invoiceFileID: fileId });
      if (!body.success) throw new Unsupported();
      let invoiceId: string;
      try {
        invoiceId = await writeInvoice(tx, caller.issuerId, body.data, {
          existingId: null,
          now,
          source: 'import',
          ownOcr: inv.OCR || null,
        });
      } catch (err) {
        if (err instanceof ApiError && err.status < 500 && !isDuplicate(err)) throw new Unsupported();
        throw err;
      }
      // Amounts to the öre: the invoice we wrote must total what Fortnox says, else nothing is kept.
      const [written] = await tx
        .select({ grossMinor: invoices.grossMinor })
        .from(invoices)
        .where(eq(invoices.id, invoiceId));
      if (written?.grossMinor !== input.totalMinor) throw new Unsupported();
      await markSource(tx, invoiceId);
      await insertTakenOver(tx, {
        issuerId: caller.issuerId,
        companyOrgNo: input.companyOrgNo,
        documentNumber,
        invoiceId,
        customerNumber: inv.CustomerNumber,
        createdBy: caller.userId,
        createdAt: now,
      });
      await tx.insert(invoiceEvents).values({
        invoiceId,
        issuerId: caller.issuerId,
        event: 1,
        userId: caller.userId,
        at: now,
        details: { source: 'fortnox', documentNumber },
      });
      return { documentNumber, ok: true, invoiceID: invoiceId, code: null };
    });
  } catch (err) {
    const fail = (code: NonNullable<Result['code']>): Result => ({
      documentNumber,
      ok: false,
      invoiceID: null,
      code,
    });
    if (err instanceof Unsupported) return fail('fortnox.invoice_unsupported');
    if (err instanceof ApiError && err.code === 'invoices.duplicate_number')
      return fail('invoices.duplicate_number');
    if (isUniqueViolation(err, 'invoices_issuer_ocr_idx')) return fail('invoices.duplicate_ocr');
    if (isUniqueViolation(err, 'invoices_issuer_number_idx')) return fail('invoices.duplicate_number');
    // Another request took the same Fortnox invoice over at the same moment: its result stands.
    if (isUniqueViolation(err, 'fortnox_invoices_document_idx')) {
      const [existing] = await takenOver(ctx.db, caller.issuerId, input.companyOrgNo, [documentNumber]);
      return existing?.issuerId === caller.issuerId && existing.state === 1
        ? { documentNumber, ok: true, invoiceID: existing.invoiceId, code: null }
        : fail('fortnox.already_sent');
    }
    throw err;
  }
}

class Unsupported extends Error {}

const isDuplicate = (err: ApiError) =>
  err.code === 'invoices.duplicate_number' || err.code === 'invoices.duplicate_ocr';

/** The pending invoices among `ids`, in the shape of the send page's list. */
async function pendingInvoices(
  db: Db,
  issuerId: string,
  ids: string[],
  today: string,
): Promise<PendingInvoice[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ invoice: invoices, recipientName: recipients.name, rejectionReason })
    .from(invoices)
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.state, 1), inArray(invoices.id, ids)))
    .orderBy(asc(invoices.invoiceDate), asc(invoices.invoiceNumber));
  return rows.map((r) => ({
    ...summary(r.invoice, r.recipientName, today, r.rejectionReason),
    sendCode: sendDueDateCode(r.invoice.service as ServiceType, r.invoice.dueDate, today),
  }));
}
