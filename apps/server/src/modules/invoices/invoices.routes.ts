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
import { changeItem, keyedCreate, okAfter, routeModule, routesTagged, signedIn } from '../../routes/define';
import { databaseFileStore } from '../../services/file-store';
import * as invoicesService from './invoices.service';

/** The invoice routes: HTTP only (schema, call, answer); the rules are in invoices.service.ts. */
export const invoiceRoutes = routeModule((app, ctx) => {
  const files = ctx.files ?? databaseFileStore(ctx.db);
  const route = routesTagged(['invoices']);

  app.route({
    ...route('listInvoices', {
      summary:
        'The invoice history: filters of spec §4, search (number, recipient, OCR), date range, sort, pages',
      querystring: listInvoicesQuerySchema,
      ok: listInvoicesResponseSchema,
    }),
    handler: async (request, reply) => {
      const q = request.query;
      const page = await invoicesService.listInvoices(ctx.db, signedIn(request).issuerId, q, ctx.now());
      // The items come as JSON from the database in the contract's shape (invoice-list.repository.ts):
      // the answer is put together as text, not mapped, validated and serialised again.
      const json = `{"items":${page.itemsJson},"total":${page.total},"page":${q.page},"pageSize":${q.pageSize},"totals":${JSON.stringify(page.totals)},"nextCursor":${JSON.stringify(page.nextCursor)},"prevCursor":${JSON.stringify(page.prevCursor)}}`;
      // Untyped: the answer is the text of a listInvoicesResponseSchema object, not the object.
      return (reply as unknown as FastifyReply).type('application/json; charset=utf-8').send(json);
    },
  });

  app.route({
    ...route('listPendingInvoices', {
      summary: 'Registered invoices not yet sent (the send page)',
      querystring: listPendingInvoicesQuerySchema,
      ok: listPendingInvoicesResponseSchema,
    }),
    handler: async (request) =>
      invoicesService.listPendingInvoices(
        ctx.db,
        signedIn(request).issuerId,
        request.query.search,
        ctx.now(),
      ),
  });

  app.route({
    ...route('getNextInvoiceNumber', {
      summary: 'A suggested next invoice number (largest number used + 1)',
      ok: nextInvoiceNumberResponseSchema,
    }),
    handler: async (request) => invoicesService.getNextInvoiceNumber(ctx.db, signedIn(request).issuerId),
  });

  app.route({
    ...route('getInvoice', {
      summary: 'One invoice with rows, VAT, amount to pay, documents and timeline',
      params: idParamsSchema,
      ok: invoiceDetailSchema,
    }),
    handler: async (request) =>
      invoicesService.getInvoice(ctx.db, signedIn(request).issuerId, request.params.id, ctx.now()),
  });

  app.route({
    ...route('createInvoice', {
      summary:
        'Register an invoice (pending until sent). Send an Idempotency-Key header to make retries safe.',
      body: invoiceBodySchema,
      validationCode: 'invoices.invalid',
      ok: invoiceDetailSchema,
    }),
    handler: keyedCreate(ctx, invoicesService.createInvoice),
  });

  app.route({
    ...route('uploadInvoice', {
      summary:
        'Register the customer’s own invoice PDF (required) with its facts, net per VAT rate and optional own OCR reference (pending until sent). Idempotency-Key makes retries safe.',
      body: uploadInvoiceBodySchema,
      validationCode: 'invoices.invalid',
      ok: invoiceDetailSchema,
    }),
    handler: keyedCreate(ctx, invoicesService.uploadInvoice),
  });

  app.route({
    ...route('updateInvoice', {
      summary: 'Change an invoice that has not been sent',
      params: idParamsSchema,
      body: invoiceBodySchema,
      validationCode: 'invoices.invalid',
      ok: invoiceDetailSchema,
    }),
    handler: changeItem(ctx, invoicesService.updateInvoice),
  });

  app.route({
    ...route('deleteInvoice', {
      summary: 'Delete an invoice that has not been sent (state 11, kept for the history)',
      params: idParamsSchema,
      ok: okResponseSchema,
    }),
    handler: async (request) =>
      okAfter(invoicesService.deleteInvoice(ctx.db, signedIn(request), request.params.id, ctx.now())),
  });

  app.route({
    ...route('sendInvoices', {
      summary:
        'Send pending invoices to us: each gets its OCR reference and moves on (credit decision or queue). Idempotency-Key makes retries safe.',
      body: sendInvoicesBodySchema,
      validationCode: 'invoices.invalid',
      ok: sendInvoicesResponseSchema,
    }),
    handler: async (request) =>
      invoicesService.sendInvoices(
        ctx.db,
        signedIn(request),
        request.body,
        request.headers,
        ctx.now(),
        files,
      ),
  });
});
