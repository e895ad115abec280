import { PassThrough } from 'node:stream';
import {
  activeRegressQuerySchema,
  isoDateSchema,
  LANGUAGES,
  ledgerExportQuerySchema,
  ledgerQuerySchema,
  ledgerResponseSchema,
  RECOURSE_SERVICES,
  REPORT_FILE_TYPES,
} from '@portal/contracts';
import { formatAmount } from '@portal/domain/money';
import { recourseDate } from '@portal/domain/money-flow';
import { translate } from '@portal/i18n';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invoices, issuers, recipients } from '../db/schema';
import { ApiError } from '../lib/errors';
import { contentDisposition } from '../lib/file-names';
import { safeCell } from '../lib/spreadsheet-cells';
import { todayIn } from '../lib/today';
import { ledgerPage, ledgerRows } from '../modules/money/money.service';
import { renderTablePdf } from '../services/table-pdf';
import { languageOf } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Active invoices: not paid (2) and partly paid (3), spec §4. */
export const ACTIVE_STATES = [2, 3];
/** Rows read from the database per round trip while a file streams out. */
const BATCH = 2_000;

/** The columns of the ledger report: those of spec §3, in order, and an installment's loan number (issue #14). */
const LEDGER_COLUMNS = [
  'invoiceNumber',
  'loanNumber',
  'invoiceDate',
  'dueDate',
  'service',
  'customer',
  'organizationNumber',
  'city',
  'sni',
  'amount',
  'currency',
  'remaining',
  'process',
];

const languageQuery = z.object({ language: z.enum(LANGUAGES).optional() });

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

/** Minor units as the number Excel shows with two decimals (SEK and EUR have two). */
const excelAmount = (minor: number) => minor / 100;

/** The `#,##0.00` of the money columns in every sheet. */
const MONEY_FORMAT = '#,##0.00';

/**
 * A one-sheet Excel file: the header, then the rows with every cell made safe (lib/spreadsheet-cells.ts);
 * `width` gives each column's width by its index, `moneyColumns` (1-based) show two decimals.
 */
async function excelFile(
  sheetName: string,
  header: string[],
  c: { width: (index: number) => number; moneyColumns: number[]; rows: (string | number)[][] },
): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(sheetName);
  sheet.columns = header.map((h, i) => ({ header: h, width: c.width(i) }));
  for (const cells of c.rows) {
    const row = sheet.addRow(cells.map((cell) => safeCell(cell)));
    for (const column of c.moneyColumns) row.getCell(column).numFmt = MONEY_FORMAT;
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Answers a file download: its name in the Content-Disposition, its type, its bytes. */
function sendFile(reply: FastifyReply, filename: string, type: string, bytes: Uint8Array) {
  return reply
    .header('Content-Disposition', contentDisposition(filename))
    .type(type)
    .send(Buffer.from(bytes));
}

/** The reports downloaded from the menu: active invoices (Excel) and the active regress report (PDF/Excel). */
export async function reportsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('downloadActiveInvoices'),
    schema: {
      tags: ['reports'],
      summary: 'All the caller’s active invoices (not paid, partly paid) as an Excel file, streamed',
      querystring: languageQuery,
    },
    handler: async (request, reply) => {
      const auth = signedIn(request);
      const language = request.query.language ?? (await languageOf(ctx.db, auth.userId));
      const t = (key: string) => translate(language, 'reports', `active.${key}`);
      const header = [
        'invoiceNumber',
        'invoiceDate',
        'dueDate',
        'service',
        'recipient',
        'organizationNumber',
        'amount',
        'remaining',
        'currency',
        'ocr',
        'state',
      ].map((k) => t(`columns.${k}`));
      // The app's clock (ctx.now), as everywhere: the file is named after today in Stockholm.
      const today = todayIn(ctx.now());
      // Keyset pages over (invoice_date, id), which the issuer/date index serves in order: memory
      // stays one batch whatever the number of invoices.
      const pageOf = (after: { date: string; id: string } | null) =>
        ctx.db
          .select(activeColumns)
          .from(invoices)
          .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
          .where(
            and(
              eq(invoices.issuerId, auth.issuerId),
              inArray(invoices.state, ACTIVE_STATES),
              after
                ? sql`(${invoices.invoiceDate}, ${invoices.id}) > (${after.date}::date, ${after.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(asc(invoices.invoiceDate), asc(invoices.id))
          .limit(BATCH);
      const out = new PassThrough();
      reply.header('Content-Disposition', contentDisposition(`${t('filename')}-${today}.xlsx`)).type(XLSX);
      void (async () => {
        const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
        const sheet = book.addWorksheet(t('sheet'));
        sheet.columns = header.map((h, i) => ({ header: h, width: i === 4 ? 32 : 16 }));
        let after: { date: string; id: string } | null = null;
        for (;;) {
          const batch = await pageOf(after);
          for (const r of batch) {
            const row = sheet.addRow(
              [
                r.invoiceNumber,
                r.invoiceDate,
                r.dueDate,
                translate(language, 'invoices', `services.${r.service}`),
                r.recipientName,
                r.organizationNumber,
                excelAmount(r.toPayMinor),
                excelAmount(r.remainingMinor),
                r.currency,
                r.ocr ?? '',
                translate(language, 'invoices', `states.${r.state}`),
              ].map((c) => safeCell(c)),
            );
            for (const c of [7, 8]) row.getCell(c).numFmt = MONEY_FORMAT;
            row.commit();
          }
          const last = batch.at(-1);
          if (!last || batch.length < BATCH) break;
          after = { date: last.invoiceDate, id: last.id };
        }
        await sheet.commit();
        await book.commit();
      })().catch((error) => out.destroy(error));
      return reply.send(out);
    },
  });

  app.route({
    ...routeOf('downloadActiveRegress'),
    schema: {
      tags: ['reports'],
      summary: 'Invoices of recourse services whose recourse date falls in [from, to], as PDF or Excel',
      querystring: z
        .object({
          from: isoDateSchema,
          to: isoDateSchema,
          fileType: z.enum(REPORT_FILE_TYPES),
          language: z.enum(LANGUAGES).optional(),
        })
        .passthrough(),
    },
    handler: async (request, reply) => {
      const auth = signedIn(request);
      const parsed = activeRegressQuerySchema.safeParse(request.query);
      if (!parsed.success) {
        const wrongRange = parsed.error.issues.some((i) => i.message === 'reports.wrong_date_range');
        throw new ApiError(wrongRange ? 'reports.wrong_date_range' : 'validation.invalid');
      }
      const { from, to, fileType } = parsed.data;
      const language = request.query.language ?? (await languageOf(ctx.db, auth.userId));
      const t = (key: string, vars?: Record<string, string>) =>
        translate(language, 'reports', `regress.${key}`, vars);
      const recourseDay = sql`(${invoices.dueDate} + ${issuers.recourseDays})`;
      const found = await ctx.db
        .select({ ...activeColumns, recourseDays: issuers.recourseDays })
        .from(invoices)
        .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
        .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
        .where(
          and(
            eq(invoices.issuerId, auth.issuerId),
            inArray(invoices.state, ACTIVE_STATES),
            inArray(invoices.service, [...RECOURSE_SERVICES]),
            sql`${recourseDay} >= ${from}::date`,
            sql`${recourseDay} <= ${to}::date`,
          ),
        )
        .orderBy(asc(recourseDay), asc(invoices.invoiceNumber));
      const rows = found.map((r) => ({
        invoiceNumber: r.invoiceNumber,
        recipientName: r.recipientName,
        organizationNumber: r.organizationNumber,
        service: translate(language, 'invoices', `services.${r.service}`),
        dueDate: r.dueDate,
        recourseDate: recourseDate(r.dueDate, r.recourseDays),
        remainingMinor: r.remainingMinor,
        currency: r.currency,
      }));
      const name = `${t('filename')}-${from}-${to}`;
      const header = [
        'invoiceNumber',
        'recipient',
        'organizationNumber',
        'service',
        'dueDate',
        'recourseDate',
        'remaining',
        'currency',
      ].map((k) => t(`columns.${k}`));
      // One row's cells, the amount as the file shows it (text in the PDF, a number in Excel).
      const cells = <A extends string | number>(r: (typeof rows)[number], amount: (minor: number) => A) => [
        r.invoiceNumber,
        r.recipientName,
        r.organizationNumber,
        r.service,
        r.dueDate,
        r.recourseDate,
        amount(r.remainingMinor),
        r.currency,
      ];
      if (fileType === 'pdf') {
        const totals = new Map<string, number>();
        for (const r of rows) totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.remainingMinor);
        const bytes = await renderTablePdf({
          title: t('title'),
          subtitle: t('period', { from, to }),
          empty: t('empty'),
          header,
          widths: [11, 22, 12, 14, 10, 10, 12, 7],
          rightAligned: [6],
          rows: rows.map((r) => cells(r, (minor) => formatAmount(minor, language))),
          totals: [...totals]
            .sort()
            .map(([currency, minor]) => `${t('total', { currency })}: ${formatAmount(minor, language)}`),
        });
        return sendFile(reply, `${name}.pdf`, 'application/pdf', bytes);
      }
      const book = await excelFile(t('sheet'), header, {
        width: (i) => (i === 1 ? 32 : 16),
        moneyColumns: [7],
        rows: rows.map((r) => cells(r, excelAmount)),
      });
      return sendFile(reply, `${name}.xlsx`, XLSX, book);
    },
  });
  app.route({
    ...routeOf('getLedgerReport'),
    schema: {
      tags: ['reports'],
      summary: 'The open ledger as of a date: invoices on our book then, with their remaining amount then',
      querystring: ledgerQuerySchema,
      response: { 200: ledgerResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      return ledgerPage(ctx.db, issuerId, request.query);
    },
  });

  app.route({
    ...routeOf('exportLedgerReport'),
    schema: {
      tags: ['reports'],
      summary: 'The open ledger as of a date as Excel or PDF, in the user’s language',
      querystring: ledgerExportQuerySchema.and(languageQuery),
    },
    handler: async (request, reply) => {
      const auth = signedIn(request);
      const { date, fileType } = request.query;
      const language = request.query.language ?? (await languageOf(ctx.db, auth.userId));
      const t = (key: string, vars?: Record<string, string>) =>
        translate(language, 'reports', `ledger.${key}`, vars);
      const found = await ledgerRows(ctx.db, auth.issuerId, date);
      const header = LEDGER_COLUMNS.map((k) => t(`columns.${k}`));
      const cells = (r: (typeof found)[number]) => [
        r.invoiceNumber,
        r.loanNumber ?? '',
        r.invoiceDate,
        r.dueDate,
        translate(language, 'invoices', `services.${r.service}`),
        r.customer,
        r.organizationNumber,
        r.city,
        r.sni,
      ];
      const processText = (r: (typeof found)[number]) => t(`process.${r.process}`);
      const name = `${t('filename')}-${date}`;
      if (fileType === 'pdf') {
        const totals = new Map<string, { amount: number; remaining: number }>();
        for (const r of found) {
          const sum = totals.get(r.currency) ?? { amount: 0, remaining: 0 };
          totals.set(r.currency, {
            amount: sum.amount + r.amountMinor,
            remaining: sum.remaining + r.remainingMinor,
          });
        }
        const bytes = await renderTablePdf({
          title: t('title'),
          subtitle: t('asOf', { date }),
          empty: t('empty'),
          header,
          widths: [9, 8, 8, 8, 9, 15, 9, 7, 5, 9, 4, 9, 8],
          rightAligned: [9, 11],
          size: 7,
          rows: found.map((r) => [
            ...cells(r),
            formatAmount(r.amountMinor, language),
            r.currency,
            formatAmount(r.remainingMinor, language),
            processText(r),
          ]),
          totals: [...totals].sort().map(([currency, s]) =>
            t('totalLine', {
              currency,
              amount: formatAmount(s.amount, language),
              remaining: formatAmount(s.remaining, language),
            }),
          ),
        });
        return sendFile(reply, `${name}.pdf`, 'application/pdf', bytes);
      }
      const book = await excelFile(t('sheet'), header, {
        width: (i) => (i === 5 ? 32 : 15),
        moneyColumns: [10, 12],
        rows: found.map((r) => [
          ...cells(r),
          excelAmount(r.amountMinor),
          r.currency,
          excelAmount(r.remainingMinor),
          processText(r),
        ]),
      });
      return sendFile(reply, `${name}.xlsx`, XLSX, book);
    },
  });
}
