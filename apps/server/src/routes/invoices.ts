import {
  type InvoiceBody,
  idParamsSchema,
  invoiceBodySchema,
  invoiceDetailSchema,
  isCompanyRecipient,
  listInvoicesQuerySchema,
  listInvoicesResponseSchema,
  listPendingInvoicesQuerySchema,
  listPendingInvoicesResponseSchema,
  nextInvoiceNumberResponseSchema,
  okResponseSchema,
  PENDING_LIST_LIMIT,
  type ServiceType,
  sendDueDateCode,
  sendInvoicesBodySchema,
  sendInvoicesResponseSchema,
  uploadInvoiceBodySchema,
} from '@portal/contracts';
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db, Tx } from '../db/client';
import { invoiceEvents, invoiceFiles, invoiceRows, invoices, issuers, recipients } from '../db/schema';
import { ApiError } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { databaseFileStore } from '../services/file-store';
import { idempotencyKeyOf, once } from '../services/idempotency';
import { type InvoiceRow, loadDetail, summary } from '../services/invoice-detail';
import { listInvoices, rejectionReason, searchWhere } from '../services/invoice-list';
import {
  computeInvoice,
  type StoredTotals,
  suggestNextInvoiceNumber,
  todayIn,
} from '../services/invoice-math';
import { assertTransition } from '../services/invoice-state';
import { uploadedInvoiceBody, uploadedRowName } from '../services/invoice-upload';
import { sendInvoices } from '../services/send-invoices';
import { CURRENCIES, loadUser, TAX_RATES } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

export async function invoiceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const files = ctx.files ?? databaseFileStore(ctx.db);

  app.route({
    ...routeOf('listInvoices'),
    schema: {
      operationId: 'listInvoices',
      tags: ['invoices'],
      summary:
        'The invoice history: filters of spec §4, search (number, recipient, OCR), date range, sort, pages',
      querystring: listInvoicesQuerySchema,
      response: { 200: listInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { issuerId } = signedIn(request);
      const q = request.query;
      const page = await listInvoices(ctx.db, issuerId, q, todayIn(ctx.now()));
      // The items come as JSON from the database in the contract's shape (services/invoice-list.ts):
      // the answer is put together as text, not mapped, validated and serialised again.
      const json = `{"items":${page.itemsJson},"total":${page.total},"page":${q.page},"pageSize":${q.pageSize},"totals":${JSON.stringify(page.totals)},"nextCursor":${JSON.stringify(page.nextCursor)},"prevCursor":${JSON.stringify(page.prevCursor)}}`;
      // Untyped: the answer is the text of a listInvoicesResponseSchema object, not the object.
      return (reply as unknown as FastifyReply).type('application/json; charset=utf-8').send(json);
    },
  });

  app.route({
    ...routeOf('listPendingInvoices'),
    schema: {
      operationId: 'listPendingInvoices',
      tags: ['invoices'],
      summary: 'Registered invoices not yet sent (the send page)',
      querystring: listPendingInvoicesQuerySchema,
      response: { 200: listPendingInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const today = todayIn(ctx.now());
      const filters: (SQL | undefined)[] = [eq(invoices.issuerId, issuerId), eq(invoices.state, 1)];
      if (request.query.search) filters.push(searchWhere(ctx.db, issuerId, request.query.search));
      const where = and(...filters);
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select({ invoice: invoices, recipientName: recipients.name, rejectionReason })
          .from(invoices)
          .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
          .where(where)
          .orderBy(asc(invoices.invoiceDate), asc(invoices.invoiceNumber))
          .limit(PENDING_LIST_LIMIT),
        ctx.db.select({ n: count() }).from(invoices).where(where),
      ]);
      return {
        items: rows.map((r) => ({
          ...summary(r.invoice, r.recipientName, today, r.rejectionReason),
          sendCode: sendDueDateCode(r.invoice.service as ServiceType, r.invoice.dueDate, today),
        })),
        total: total?.n ?? 0,
      };
    },
  });

  app.route({
    ...routeOf('getNextInvoiceNumber'),
    schema: {
      operationId: 'getNextInvoiceNumber',
      tags: ['invoices'],
      summary: 'A suggested next invoice number (largest number used + 1)',
      response: { 200: nextInvoiceNumberResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const rows = await ctx.db
        .select({ n: invoices.invoiceNumber })
        .from(invoices)
        .where(eq(invoices.issuerId, issuerId))
        .orderBy(desc(invoices.createdAt))
        .limit(1000);
      return { invoiceNumber: suggestNextInvoiceNumber(rows.map((r) => r.n)) };
    },
  });

  app.route({
    ...routeOf('getInvoice'),
    schema: {
      operationId: 'getInvoice',
      tags: ['invoices'],
      summary: 'One invoice with rows, VAT, amount to pay, documents and timeline',
      params: idParamsSchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      loadDetail(ctx.db, signedIn(request).issuerId, request.params.id, todayIn(ctx.now())),
  });

  app.route({
    ...routeOf('createInvoice'),
    config: { operationId: 'createInvoice', validationCode: 'invoices.invalid' },
    schema: {
      operationId: 'createInvoice',
      tags: ['invoices'],
      summary:
        'Register an invoice (pending until sent). Send an Idempotency-Key header to make retries safe.',
      body: invoiceBodySchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const key = idempotencyKeyOf(request.headers);
      const today = todayIn(ctx.now());
      return once(ctx.db, auth.issuerId, key, 'createInvoice', request.body, async (tx) => {
        const id = await writeInvoice(tx, auth.issuerId, request.body, { existingId: null, now: ctx.now() });
        await tx
          .insert(invoiceEvents)
          .values({ invoiceId: id, issuerId: auth.issuerId, event: 1, userId: auth.userId, at: ctx.now() });
        const source = request.body.duplicatedFromID;
        if (source) {
          // The source must be the caller's own; its number is kept on the event for the timeline.
          const [from] = await tx
            .select({ number: invoices.invoiceNumber })
            .from(invoices)
            .where(and(eq(invoices.issuerId, auth.issuerId), eq(invoices.id, source)));
          if (!from) throw new ApiError('invoices.not_found');
          await tx.insert(invoiceEvents).values({
            invoiceId: id,
            issuerId: auth.issuerId,
            event: 19,
            userId: auth.userId,
            at: ctx.now(),
            details: { fromInvoiceNumber: from.number },
          });
        }
        return loadDetail(tx, auth.issuerId, id, today);
      }).catch(async (err) => {
        throw await duplicateNumberError(ctx.db, auth.issuerId, request.body.invoiceNumber, err);
      });
    },
  });

  app.route({
    ...routeOf('uploadInvoice'),
    config: { operationId: 'uploadInvoice', validationCode: 'invoices.invalid' },
    schema: {
      operationId: 'uploadInvoice',
      tags: ['invoices'],
      summary:
        'Register the customer’s own invoice PDF (required) with its facts, net per VAT rate and optional own OCR reference (pending until sent). Idempotency-Key makes retries safe.',
      body: uploadInvoiceBodySchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const key = idempotencyKeyOf(request.headers);
      const today = todayIn(ctx.now());
      const user = await loadUser(ctx.db, auth.userId);
      const [issuer] = await ctx.db
        .select({ country: issuers.country })
        .from(issuers)
        .where(eq(issuers.id, auth.issuerId));
      if (!issuer) throw new ApiError('server.internal');
      const body = uploadedInvoiceBody(request.body, uploadedRowName(user.language, issuer.country));
      return once(ctx.db, auth.issuerId, key, 'uploadInvoice', request.body, async (tx) => {
        const id = await writeInvoice(tx, auth.issuerId, body, {
          existingId: null,
          now: ctx.now(),
          source: 'upload',
          ownOcr: request.body.ocr,
        });
        await tx
          .insert(invoiceEvents)
          .values({ invoiceId: id, issuerId: auth.issuerId, event: 1, userId: auth.userId, at: ctx.now() });
        return loadDetail(tx, auth.issuerId, id, today);
      }).catch(async (err) => {
        throw await duplicateNumberError(ctx.db, auth.issuerId, request.body.invoiceNumber, err);
      });
    },
  });

  app.route({
    ...routeOf('updateInvoice'),
    config: { operationId: 'updateInvoice', validationCode: 'invoices.invalid' },
    schema: {
      operationId: 'updateInvoice',
      tags: ['invoices'],
      summary: 'Change an invoice that has not been sent',
      params: idParamsSchema,
      body: invoiceBodySchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const today = todayIn(ctx.now());
      return ctx.db
        .transaction(async (tx) => {
          const current = await lockOwn(tx, auth.issuerId, request.params.id);
          assertTransition(current.state, 'edit');
          await writeInvoice(tx, auth.issuerId, request.body, { existingId: current.id, now: ctx.now() });
          await tx.insert(invoiceEvents).values({
            invoiceId: current.id,
            issuerId: auth.issuerId,
            event: 18,
            userId: auth.userId,
            at: ctx.now(),
          });
          return loadDetail(tx, auth.issuerId, current.id, today);
        })
        .catch(async (err) => {
          throw await duplicateNumberError(ctx.db, auth.issuerId, request.body.invoiceNumber, err);
        });
    },
  });

  app.route({
    ...routeOf('deleteInvoice'),
    schema: {
      operationId: 'deleteInvoice',
      tags: ['invoices'],
      summary: 'Delete an invoice that has not been sent (state 11, kept for the history)',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      await ctx.db.transaction(async (tx) => {
        const current = await lockOwn(tx, auth.issuerId, request.params.id);
        assertTransition(current.state, 'delete');
        await tx.update(invoices).set({ state: 11, updatedAt: ctx.now() }).where(eq(invoices.id, current.id));
        await tx.insert(invoiceEvents).values({
          invoiceId: current.id,
          issuerId: auth.issuerId,
          event: 20,
          userId: auth.userId,
          at: ctx.now(),
        });
      });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('sendInvoices'),
    config: { operationId: 'sendInvoices', validationCode: 'invoices.invalid' },
    schema: {
      operationId: 'sendInvoices',
      tags: ['invoices'],
      summary:
        'Send pending invoices to us: each gets its OCR reference and moves on (credit decision or queue). Idempotency-Key makes retries safe.',
      body: sendInvoicesBodySchema,
      response: { 200: sendInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const key = idempotencyKeyOf(request.headers);
      const now = ctx.now();
      const ids = [...new Set(request.body.invoiceIDs)];
      return once(ctx.db, auth.issuerId, key, 'sendInvoices', request.body, async (tx) => {
        return { results: await sendInvoices(tx, auth, ids, now, files) };
      });
    },
  });
}

/** Validates the body against the issuer's currencies, VAT rates and recipients, then writes the invoice and rows. */
export async function writeInvoice(
  tx: Tx,
  issuerId: string,
  body: InvoiceBody & { rows: unknown[] },
  opts: {
    /** The invoice to overwrite (an edit), or null for a new one. */
    existingId: string | null;
    /** The app clock's time: created and updated stamps. */
    now: Date;
    source?: 'form' | 'upload' | 'import';
    /** The customer's own OCR reference of a new invoice (register by upload); an edit keeps the stored one. */
    ownOcr?: string | null;
  },
): Promise<string> {
  const { existingId, now, source = 'form', ownOcr = null } = opts;
  const parsed = invoiceBodySchema.parse(body);
  const [issuer] = await tx
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  if (!issuer) throw new ApiError('server.internal');
  if (!CURRENCIES[issuer.country].includes(parsed.currency))
    throw new ApiError('invoices.invalid_currency', {
      issues: [{ path: 'currency', code: 'invoices.invalid_currency' }],
    });
  const rates = new Set(TAX_RATES[issuer.country].map((r) => r.rateBasisPoints));
  parsed.rows.forEach((row, i) => {
    if (!rates.has(row.vatBasisPoints))
      throw new ApiError('invoices.invalid_vat_rate', {
        issues: [{ path: `rows.${i}.vatBasisPoints`, code: 'invoices.invalid_vat_rate' }],
      });
  });
  if (parsed.dueDate < parsed.invoiceDate)
    throw new ApiError('invoices.invalid', {
      issues: [{ path: 'dueDate', code: 'validation.due_before_invoice_date' }],
    });
  const [recipient] = await tx
    .select({ id: recipients.id, organizationNumber: recipients.organizationNumber, vat: recipients.vat })
    .from(recipients)
    .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, parsed.recipientID)));
  if (!recipient)
    throw new ApiError('recipient.not_found', {
      issues: [{ path: 'recipientID', code: 'validation.recipient_required' }],
    });
  // ROT and RUT are a private person's tax reduction: never with a company as the buyer (issue #11).
  if (parsed.rotRut.type !== 'none' && isCompanyRecipient(recipient))
    throw new ApiError('invoices.rot_rut_invalid', {
      issues: [{ path: 'rotRut.type', code: 'validation.rot_rut_private_buyer' }],
    });

  const totals = computeInvoice(parsed, issuer.country);
  if (existingId && parsed.invoiceFileID)
    await refuseEditedUploadAmounts(tx, issuerId, existingId, parsed.invoiceFileID, parsed.currency, totals);
  const values = {
    issuerId,
    recipientId: parsed.recipientID,
    invoiceNumber: parsed.invoiceNumber.trim(),
    service: parsed.service,
    currency: parsed.currency,
    invoiceDate: parsed.invoiceDate,
    dueDate: parsed.dueDate,
    orderReference: parsed.orderReference,
    issuerContact: parsed.issuerContact,
    recipientContact: parsed.recipientContact,
    netMinor: totals.netMinor,
    vatMinor: totals.vatMinor,
    grossMinor: totals.grossMinor,
    deductionMinor: totals.deductionMinor,
    toPayMinor: totals.toPayMinor,
    remainingMinor: totals.toPayMinor,
    rotRut: parsed.rotRut,
    vatLines: totals.vatLines,
    source: parsed.invoiceFileID ? 'upload' : source,
  };
  let id = existingId;
  if (id) {
    await tx
      .update(invoices)
      .set({ ...values, updatedAt: now })
      .where(and(eq(invoices.issuerId, issuerId), eq(invoices.id, id)));
    await tx.delete(invoiceRows).where(eq(invoiceRows.invoiceId, id));
  } else {
    const [row] = await tx
      .insert(invoices)
      .values({ ...values, state: 1, ocr: ownOcr, createdAt: now, updatedAt: now })
      .returning({ id: invoices.id });
    if (!row) throw new ApiError('server.internal');
    id = row.id;
  }
  const invoiceId = id;
  await attachFiles(tx, issuerId, invoiceId, parsed.attachmentIDs, parsed.invoiceFileID);
  await tx.insert(invoiceRows).values(
    parsed.rows.map((r, position) => ({
      invoiceId,
      position,
      articleNumber: r.articleNumber,
      name: r.name,
      description: r.description,
      quantityMilli: r.quantityMilli,
      unit: r.unit,
      unitPriceMinor: r.unitPriceMinor,
      vatBasisPoints: r.vatBasisPoints,
      rotRut: r.rotRut,
      netMinor: totals.rowNetMinor[position] ?? 0,
    })),
  );
  return invoiceId;
}

/**
 * An invoice registered by upload is sent as the customer's own PDF (issue #11): its currency and
 * amounts (net and VAT per rate, total, deduction) are what that PDF states, so an edit that keeps the
 * same PDF cannot change them; a new PDF (another `invoiceFileID`) may bring new amounts.
 */
async function refuseEditedUploadAmounts(
  tx: Tx,
  issuerId: string,
  invoiceId: string,
  invoiceFileID: string,
  currency: string,
  totals: StoredTotals,
): Promise<void> {
  const [current] = await tx
    .select({
      currency: invoices.currency,
      vatLines: invoices.vatLines,
      grossMinor: invoices.grossMinor,
      deductionMinor: invoices.deductionMinor,
    })
    .from(invoices)
    .innerJoin(
      invoiceFiles,
      and(
        eq(invoiceFiles.invoiceId, invoices.id),
        eq(invoiceFiles.id, invoiceFileID),
        eq(invoiceFiles.role, 'invoice'),
      ),
    )
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.id, invoiceId)));
  if (!current) return;
  const amountsOf = (lines: readonly { vatBasisPoints: number; netMinor: number; vatMinor: number }[]) =>
    JSON.stringify(
      [...lines]
        .sort((a, b) => a.vatBasisPoints - b.vatBasisPoints)
        .map((l) => [l.vatBasisPoints, l.netMinor, l.vatMinor]),
    );
  const same =
    current.currency === currency &&
    current.grossMinor === totals.grossMinor &&
    current.deductionMinor === totals.deductionMinor &&
    amountsOf(current.vatLines) === amountsOf(totals.vatLines);
  if (!same)
    throw new ApiError('invoices.uploaded_amounts_locked', {
      issues: [{ path: 'rows', code: 'invoices.uploaded_amounts_locked' }],
    });
}

/**
 * Ties uploaded files to the invoice: each must be the issuer's and not another invoice's. Files the
 * body no longer names are released (an edit may drop an attachment).
 */
async function attachFiles(
  tx: Tx,
  issuerId: string,
  invoiceId: string,
  attachmentIDs: string[],
  invoiceFileID: string | null,
): Promise<void> {
  const wanted = [...new Set([...attachmentIDs, ...(invoiceFileID ? [invoiceFileID] : [])])];
  await tx
    .update(invoiceFiles)
    .set({ invoiceId: null })
    .where(and(eq(invoiceFiles.issuerId, issuerId), eq(invoiceFiles.invoiceId, invoiceId)));
  if (wanted.length === 0) return;
  const usable = await tx
    .select({ id: invoiceFiles.id, invoiceId: invoiceFiles.invoiceId, role: invoiceFiles.role })
    .from(invoiceFiles)
    .where(and(eq(invoiceFiles.issuerId, issuerId), inArray(invoiceFiles.id, wanted)))
    .for('update');
  const free = new Map(usable.filter((f) => f.invoiceId === null).map((f) => [f.id, f.role]));
  // The invoice's own PDF must have been uploaded as one (role `invoice`), by this issuer; another
  // issuer's file is not found, exactly as a file that does not exist.
  if (invoiceFileID && free.get(invoiceFileID) !== 'invoice')
    throw new ApiError('files.not_found', { issues: [{ path: 'invoiceFileID', code: 'files.not_found' }] });
  if (attachmentIDs.some((id) => !free.has(id)))
    throw new ApiError('files.not_found', { issues: [{ path: 'attachmentIDs', code: 'files.not_found' }] });
  await tx
    .update(invoiceFiles)
    .set({ invoiceId })
    .where(and(eq(invoiceFiles.issuerId, issuerId), inArray(invoiceFiles.id, wanted)));
}

async function lockOwn(tx: Tx, issuerId: string, id: string): Promise<InvoiceRow> {
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.id, id)))
    .for('update');
  if (!row) throw new ApiError('invoices.not_found');
  return row;
}

/** A unique-number violation becomes the spec's duplicate error with the existing invoice's facts. */
async function duplicateNumberError(
  db: Db,
  issuerId: string,
  invoiceNumber: string,
  err: unknown,
): Promise<unknown> {
  if (isUniqueViolation(err, 'invoices_issuer_ocr_idx'))
    return new ApiError('invoices.duplicate_ocr', {
      issues: [{ path: 'ocr', code: 'invoices.duplicate_ocr' }],
    });
  if (!isUniqueViolation(err)) return err;
  const [existing] = await db
    .select({
      grossMinor: invoices.grossMinor,
      currency: invoices.currency,
      invoiceDate: invoices.invoiceDate,
      recipientName: recipients.name,
    })
    .from(invoices)
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.invoiceNumber, invoiceNumber.trim())));
  if (!existing) return err;
  return new ApiError('invoices.duplicate_number', {
    issues: [{ path: 'invoiceNumber', code: 'invoices.duplicate_number' }],
    details: { ...existing },
  });
}
