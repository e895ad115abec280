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
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, routeOf, signedIn } from '../../routes/define';
import { databaseFileStore } from '../../services/file-store';
import * as invoicesService from './invoices.service';

/** The invoice routes: HTTP only (schema, call, answer); the rules are in invoices.service.ts. */
export async function invoiceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const files = ctx.files ?? databaseFileStore(ctx.db);

  app.route({
    ...routeOf('listInvoices'),
    schema: {
      tags: ['invoices'],
      summary:
        'The invoice history: filters of spec §4, search (number, recipient, OCR), date range, sort, pages',
      querystring: listInvoicesQuerySchema,
      response: { 200: listInvoicesResponseSchema, ...errorResponses },
    },
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
    ...routeOf('listPendingInvoices'),
    schema: {
      tags: ['invoices'],
      summary: 'Registered invoices not yet sent (the send page)',
      querystring: listPendingInvoicesQuerySchema,
      response: { 200: listPendingInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      invoicesService.listPendingInvoices(
        ctx.db,
        signedIn(request).issuerId,
        request.query.search,
        ctx.now(),
      ),
  });

  app.route({
    ...routeOf('getNextInvoiceNumber'),
    schema: {
      tags: ['invoices'],
      summary: 'A suggested next invoice number (largest number used + 1)',
      response: { 200: nextInvoiceNumberResponseSchema, ...errorResponses },
    },
    handler: async (request) => invoicesService.getNextInvoiceNumber(ctx.db, signedIn(request).issuerId),
  });

  app.route({
    ...routeOf('getInvoice'),
    schema: {
      tags: ['invoices'],
      summary: 'One invoice with rows, VAT, amount to pay, documents and timeline',
      params: idParamsSchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      invoicesService.getInvoice(ctx.db, signedIn(request).issuerId, request.params.id, ctx.now()),
  });

  app.route({
    ...routeOf('createInvoice', { validationCode: 'invoices.invalid' }),
    schema: {
      tags: ['invoices'],
      summary:
        'Register an invoice (pending until sent). Send an Idempotency-Key header to make retries safe.',
      body: invoiceBodySchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      invoicesService.createInvoice(ctx.db, signedIn(request), request.body, request.headers, ctx.now()),
  });

  app.route({
    ...routeOf('uploadInvoice', { validationCode: 'invoices.invalid' }),
    schema: {
      tags: ['invoices'],
      summary:
        'Register the customer’s own invoice PDF (required) with its facts, net per VAT rate and optional own OCR reference (pending until sent). Idempotency-Key makes retries safe.',
      body: uploadInvoiceBodySchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      invoicesService.uploadInvoice(ctx.db, signedIn(request), request.body, request.headers, ctx.now()),
  });

  app.route({
    ...routeOf('updateInvoice', { validationCode: 'invoices.invalid' }),
    schema: {
      tags: ['invoices'],
      summary: 'Change an invoice that has not been sent',
      params: idParamsSchema,
      body: invoiceBodySchema,
      response: { 200: invoiceDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      invoicesService.updateInvoice(ctx.db, signedIn(request), request.params.id, request.body, ctx.now()),
  });

  app.route({
    ...routeOf('deleteInvoice'),
    schema: {
      tags: ['invoices'],
      summary: 'Delete an invoice that has not been sent (state 11, kept for the history)',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      await invoicesService.deleteInvoice(ctx.db, signedIn(request), request.params.id, ctx.now());
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('sendInvoices', { validationCode: 'invoices.invalid' }),
    schema: {
      tags: ['invoices'],
      summary:
        'Send pending invoices to us: each gets its OCR reference and moves on (credit decision or queue). Idempotency-Key makes retries safe.',
      body: sendInvoicesBodySchema,
      response: { 200: sendInvoicesResponseSchema, ...errorResponses },
    },
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
}
