import {
  idParamsSchema,
  invoiceBodySchema,
  invoiceDetailSchema,
  listInvoicesQuerySchema,
  listInvoicesResponseSchema,
  listPendingInvoicesQuerySchema,
  listPendingInvoicesResponseSchema,
  nextInvoiceNumberResponseSchema,
  okResponseSchema,
  sendInvoicesBodySchema,
  sendInvoicesResponseSchema,
  uploadInvoiceBodySchema,
} from '@portal/contracts';
import type { FastifyReply } from 'fastify';
import { changeItem, keyedCreate, okAfter, routeModule, signedIn } from '../../routes/define';
import { fileStoreOf } from '../../services/file-store';
import * as invoicesService from './invoices.service';

/** The invoice routes: HTTP only (schema, call, answer); the rules are in invoices.service.ts. */
export const invoiceRoutes = routeModule(['invoices'], (route, ctx) => {
  const files = fileStoreOf(ctx);
  /** What creating and changing an invoice take and answer: the invoice's form, and the invoice. */
  const invoiceForm = {
    body: invoiceBodySchema,
    validationCode: 'invoices.invalid',
    ok: invoiceDetailSchema,
  } as const;
  route(
    'listInvoices',
    'The invoice history: filters of spec §4, search (number, recipient, OCR), date range, sort, pages',
    { querystring: listInvoicesQuerySchema, ok: listInvoicesResponseSchema },
    async (request, reply) => {
      const q = request.query;
      const page = await invoicesService.listInvoices(ctx.db, signedIn(request).issuerId, q, ctx.now());
      // The items come as JSON from the database in the contract's shape (invoice-list.repository.ts):
      // the answer is put together as text, not mapped, validated and serialised again.
      const json = `{"items":${page.itemsJson},"total":${page.total},"page":${q.page},"pageSize":${q.pageSize},"totals":${JSON.stringify(page.totals)},"nextCursor":${JSON.stringify(page.nextCursor)},"prevCursor":${JSON.stringify(page.prevCursor)}}`;
      // Untyped: the answer is the text of a listInvoicesResponseSchema object, not the object.
      return (reply as unknown as FastifyReply).type('application/json; charset=utf-8').send(json);
    },
  );
  route(
    'listPendingInvoices',
    'Registered invoices not yet sent (the send page)',
    { querystring: listPendingInvoicesQuerySchema, ok: listPendingInvoicesResponseSchema },
    async (request) =>
      invoicesService.listPendingInvoices(
        ctx.db,
        signedIn(request).issuerId,
        request.query.search,
        ctx.now(),
      ),
  );
  route(
    'getNextInvoiceNumber',
    'A suggested next invoice number (largest number used + 1)',
    { ok: nextInvoiceNumberResponseSchema },
    async (request) => invoicesService.getNextInvoiceNumber(ctx.db, signedIn(request).issuerId),
  );
  route(
    'getInvoice',
    'One invoice with rows, VAT, amount to pay, documents and timeline',
    { params: idParamsSchema, ok: invoiceDetailSchema },
    async (request) =>
      invoicesService.getInvoice(ctx.db, signedIn(request).issuerId, request.params.id, ctx.now()),
  );
  route(
    'createInvoice',
    'Register an invoice (pending until sent). Send an Idempotency-Key header to make retries safe.',
    invoiceForm,
    keyedCreate(ctx, invoicesService.createInvoice),
  );
  route(
    'uploadInvoice',
    'Register the customer’s own invoice PDF (required) with its facts, net per VAT rate and optional own OCR reference (pending until sent). Idempotency-Key makes retries safe.',
    { body: uploadInvoiceBodySchema, validationCode: 'invoices.invalid', ok: invoiceDetailSchema },
    keyedCreate(ctx, invoicesService.uploadInvoice),
  );
  route(
    'updateInvoice',
    'Change an invoice that has not been sent',
    { params: idParamsSchema, ...invoiceForm },
    changeItem(ctx, invoicesService.updateInvoice),
  );
  route(
    'deleteInvoice',
    'Delete an invoice that has not been sent (state 11, kept for the history)',
    { params: idParamsSchema, ok: okResponseSchema },
    async (request) =>
      okAfter(invoicesService.deleteInvoice(ctx.db, signedIn(request), request.params.id, ctx.now())),
  );
  route(
    'sendInvoices',
    'Send pending invoices to us: each gets its OCR reference and moves on (credit decision or queue). Idempotency-Key makes retries safe.',
    { body: sendInvoicesBodySchema, validationCode: 'invoices.invalid', ok: sendInvoicesResponseSchema },
    async (request) =>
      invoicesService.sendInvoices(
        ctx.db,
        signedIn(request),
        request.body,
        request.headers,
        ctx.now(),
        files,
      ),
  );
});
