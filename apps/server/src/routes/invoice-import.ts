import { createHash } from 'node:crypto';
import {
  FILE_MAX_BYTES,
  INVOICE_EVENT,
  importFileQuerySchema,
  importInvoicesResponseSchema,
  importPreviewResponseSchema,
  importTemplateQuerySchema,
} from '@portal/contracts';
import { DEFAULT_PAYMENT_TERMS_DAYS, dueDate } from '@portal/domain/due-date';
import type { Currency } from '@portal/domain/money';
import { translate } from '@portal/i18n';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { invoiceEvents, invoices, issuers, recipients } from '../db/schema';
import { CSV_CONTENT_TYPE } from '../lib/csv';
import { ApiError } from '../lib/errors';
import { contentDisposition } from '../lib/file-names';
import { todayIn } from '../lib/today';
import { suggestNextInvoiceNumber, writeInvoice } from '../modules/invoices/invoices.service';
import { idempotencyKeyOf, once } from '../services/idempotency';
import { ImportPool } from '../services/import-pool';
import {
  checkImport,
  type ImportContext,
  importTemplate,
  type ParsedImport,
  type TemplateExample,
} from '../services/invoice-import';
import { CURRENCIES, languageOf, TAX_RATES } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

async function importContext(db: Db | Tx, issuerId: string): Promise<ImportContext> {
  const [issuer] = await db
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  if (!issuer) throw new ApiError('server.internal');
  const own = await db
    .select({ id: recipients.id, name: recipients.name, org: recipients.organizationNumber })
    .from(recipients)
    .where(eq(recipients.issuerId, issuerId));
  const numbers = await db
    .select({ n: invoices.invoiceNumber })
    .from(invoices)
    .where(eq(invoices.issuerId, issuerId));
  return {
    country: issuer.country,
    currencies: CURRENCIES[issuer.country],
    vatRates: TAX_RATES[issuer.country].map((r) => r.rateBasisPoints),
    recipientByNumber: new Map(
      own.filter((r) => r.org).map((r) => [r.org.replace(/[\s-]/g, ''), { id: r.id, name: r.name }]),
    ),
    recipientByName: new Map(own.map((r) => [r.name.toLowerCase(), { id: r.id, name: r.name }])),
    existingNumbers: new Set(numbers.map((r) => r.n)),
  };
}

/**
 * The template's example invoice for an issuer: one of its own recipients, its home currency and
 * standard VAT rate, dated today with 30 days to pay, and numbered with the issuer's next invoice number
 * (the largest number used + 1, as the invoice form suggests), which no invoice of the issuer has: the
 * example never collides with an existing invoice and imports as it is.
 */
async function templateExample(db: Db, issuerId: string, now: Date): Promise<TemplateExample> {
  const context = await importContext(db, issuerId);
  const [recipient] = await db
    .select({ org: recipients.organizationNumber, name: recipients.name })
    .from(recipients)
    .where(eq(recipients.issuerId, issuerId))
    .orderBy(asc(recipients.name))
    .limit(1);
  const invoiceNumber = suggestNextInvoiceNumber([...context.existingNumbers]);
  if (context.existingNumbers.has(invoiceNumber)) throw new ApiError('server.internal');
  const today = todayIn(now);
  return {
    invoiceNumber,
    // Without any recipient yet, an illustration: the customer puts one of theirs in its place.
    recipientOrganizationNumber: recipient ? recipient.org : '556036-0793',
    recipientName: recipient ? recipient.name : 'Kund AB',
    invoiceDate: today,
    dueDate: dueDate(today, DEFAULT_PAYMENT_TERMS_DAYS),
    currency: (context.currencies[0] ?? 'SEK') as Currency,
    vatBasisPoints: context.vatRates[0] ?? 0,
  };
}

/** The file's table, read in a worker of `pool` with every limit held while reading (services/import-table.ts). */
async function readTable(
  pool: ImportPool,
  request: FastifyRequest,
  format: 'csv' | 'xlsx',
): Promise<string[][]> {
  const bytes = request.body;
  if (!Buffer.isBuffer(bytes)) throw new ApiError('files.required');
  if (bytes.length === 0) throw new ApiError('import.empty');
  const table = await pool.read(format, bytes);
  // A file of blank lines (or an empty sheet) has not even the header: nothing to check.
  if (table.length === 0) throw new ApiError('import.empty');
  return table;
}

export async function invoiceImportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const pool = new ImportPool(undefined, (message) => fastify.log.warn(message));
  fastify.addHook('onClose', () => pool.close());
  // The body is the file itself, whatever type the browser gives it: a .csv often comes as text/plain
  // or application/vnd.ms-excel. Fastify's JSON and text parsers would turn it into a string or a
  // 400, so this plugin's scope (encapsulated, only these routes) reads every type as bytes.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: FILE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  const check = async (
    db: Db | Tx,
    request: FastifyRequest,
    issuerId: string,
    format: 'csv' | 'xlsx',
  ): Promise<ParsedImport> =>
    checkImport(await readTable(pool, request, format), await importContext(db, issuerId));

  app.route({
    ...routeOf('previewInvoiceImport'),
    bodyLimit: FILE_MAX_BYTES,
    schema: {
      tags: ['invoices'],
      summary: 'Check an import file (CSV or Excel, the body) and show what it would register; saves nothing',
      querystring: importFileQuerySchema,
      response: { 200: importPreviewResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      (await check(ctx.db, request, signedIn(request).issuerId, request.query.format)).preview,
  });

  app.route({
    ...routeOf('importInvoices'),
    bodyLimit: FILE_MAX_BYTES,
    schema: {
      tags: ['invoices'],
      summary:
        'Register every valid invoice of an import file in one transaction (Idempotency-Key makes retries safe)',
      querystring: importFileQuerySchema,
      response: { 200: importInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const key = idempotencyKeyOf(request.headers);
      const now = ctx.now();
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const fingerprint = {
        format: request.query.format,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
      // A stored answer for the key comes back before the file is read again: a retry imports nothing twice.
      return once(ctx.db, auth.issuerId, key, 'importInvoices', fingerprint, async (tx) => {
        const parsed = await check(tx, request, auth.issuerId, request.query.format);
        if (parsed.valid.length === 0) throw new ApiError('import.nothing_valid');
        const created: { invoiceID: string; invoiceNumber: string }[] = [];
        for (const invoice of parsed.valid) {
          const id = await writeInvoice(tx, auth.issuerId, invoice, {
            existingId: null,
            now,
            source: 'import',
          });
          created.push({ invoiceID: id, invoiceNumber: invoice.invoiceNumber });
        }
        await tx.insert(invoiceEvents).values(
          created.map((c) => ({
            invoiceId: c.invoiceID,
            issuerId: auth.issuerId,
            event: INVOICE_EVENT.registered,
            userId: auth.userId,
            at: now,
            details: { source: 'import' },
          })),
        );
        // Re-read inside the transaction: every invoice is there, or none is.
        const stored = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(
            and(
              eq(invoices.issuerId, auth.issuerId),
              inArray(
                invoices.id,
                created.map((c) => c.invoiceID),
              ),
            ),
          );
        if (stored.length !== created.length) throw new ApiError('server.internal');
        return { created, skipped: parsed.preview.invoices.length - created.length };
      });
    },
  });

  app.route({
    ...routeOf('getImportTemplate'),
    schema: {
      tags: ['invoices'],
      summary: 'The import template (CSV or Excel) with the columns and an example invoice',
      querystring: importTemplateQuerySchema,
      response: { 200: z.any(), ...errorResponses },
    },
    handler: async (request, reply) => {
      const auth = signedIn(request);
      // As the reports: the language the page asks for, else the user's stored one.
      const language = request.query.language ?? (await languageOf(ctx.db, auth.userId));
      const format = request.query.format;
      const file = await importTemplate(
        format,
        language,
        await templateExample(ctx.db, auth.issuerId, ctx.now()),
      );
      const name = translate(language, 'documents', 'invoiceImport.filename');
      reply
        .header('Content-Disposition', contentDisposition(`${name}.${format}`))
        .type(
          format === 'csv'
            ? CSV_CONTENT_TYPE
            : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
      return reply.send(file);
    },
  });
}
