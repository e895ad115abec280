import {
  FILE_MAX_BYTES,
  importFileQuerySchema,
  importInvoicesResponseSchema,
  importPreviewResponseSchema,
  importTemplateQuerySchema,
} from '@portal/contracts';
import { z } from 'zod';
import { bodiesAsBytes, routeModule, sendFile, signedIn } from '../../routes/define';
import * as imports from './invoice-import.service';

/** Invoice import from CSV and Excel (spec §2): HTTP only; the rules are in invoice-import.service.ts. */
export const invoiceImportRoutes = routeModule(['invoices'], (route, ctx, fastify) => {
  const pool = imports.newImportPool((message) => fastify.log.warn(message));
  fastify.addHook('onClose', () => pool.close());
  // The body is the file itself, whatever type the browser gives it: a .csv often comes as text/plain
  // or application/vnd.ms-excel. Fastify's JSON and text parsers would turn it into a string or a
  // 400, so this plugin's scope (encapsulated, only these routes) reads every type as bytes.
  fastify.removeAllContentTypeParsers();
  bodiesAsBytes(fastify, FILE_MAX_BYTES);

  route(
    'previewInvoiceImport',
    'Check an import file (CSV or Excel, the body) and show what it would register; saves nothing',
    { querystring: importFileQuerySchema, ok: importPreviewResponseSchema, bodyLimit: FILE_MAX_BYTES },
    async (request) =>
      imports.previewInvoiceImport(ctx.db, pool, signedIn(request).issuerId, request.body, request.query),
  );
  route(
    'importInvoices',
    'Register every valid invoice of an import file in one transaction (Idempotency-Key makes retries safe)',
    { querystring: importFileQuerySchema, ok: importInvoicesResponseSchema, bodyLimit: FILE_MAX_BYTES },
    async (request) =>
      imports.importInvoices(
        ctx.db,
        pool,
        signedIn(request),
        request.body,
        request.query,
        request.headers,
        ctx.now(),
      ),
  );
  route(
    'getImportTemplate',
    'The import template (CSV or Excel) with the columns and an example invoice',
    { querystring: importTemplateQuerySchema, ok: z.any() },
    async (request, reply) => {
      const template = await imports.getImportTemplate(ctx.db, signedIn(request), request.query, ctx.now());
      return sendFile(reply, template.fileName, template.contentType, template.file);
    },
  );
});
