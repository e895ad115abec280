import { PassThrough } from 'node:stream';
import {
  activeRegressQuerySchema,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  RECOURSE_SERVICES,
} from '@portal/contracts';
import { recourseDate } from '@portal/domain/money-flow';
import { translate } from '@portal/i18n';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/client';
import { invoices, issuers, recipients, users } from '../db/schema';
import { ApiError } from '../lib/errors';
import { safeCell } from '../lib/spreadsheet-cells';
import { renderRegressPdf } from '../services/regress-pdf';
import { routeOf, signedIn } from './define';
import { contentDisposition } from './files';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Active invoices: not paid (2) and partly paid (3), spec §4. */
export const ACTIVE_STATES = [2, 3];
/** Rows read from the database per round trip while a file streams out. */
const BATCH = 2_000;

async function languageOf(db: Db, userId: string): Promise<Language> {
  const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  return user?.language ?? DEFAULT_LANGUAGE;
}

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

/** The reports downloaded from the menu: active invoices (Excel) and the active regress report (PDF/Excel). */
export async function reportsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('downloadActiveInvoices'),
    schema: {
      operationId: 'downloadActiveInvoices',
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
      const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
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
            for (const c of [7, 8]) row.getCell(c).numFmt = '#,##0.00';
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
      operationId: 'downloadActiveRegress',
      tags: ['reports'],
      summary: 'Invoices of recourse services whose recourse date falls in [from, to], as PDF or Excel',
      querystring: z
        .object({
          from: z.string(),
          to: z.string(),
          fileType: z.string(),
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
      if (fileType === 'pdf') {
        const bytes = await renderRegressPdf({
          title: t('title'),
          period: t('period', { from, to }),
          empty: t('empty'),
          totalLabel: (currency) => t('total', { currency }),
          header,
          rows,
          language,
        });
        return reply
          .header('Content-Disposition', contentDisposition(`${name}.pdf`))
          .type('application/pdf')
          .send(Buffer.from(bytes));
      }
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet(t('sheet'));
      sheet.columns = header.map((h, i) => ({ header: h, width: i === 1 ? 32 : 16 }));
      for (const r of rows) {
        const row = sheet.addRow(
          [
            r.invoiceNumber,
            r.recipientName,
            r.organizationNumber,
            r.service,
            r.dueDate,
            r.recourseDate,
            excelAmount(r.remainingMinor),
            r.currency,
          ].map((c) => safeCell(c)),
        );
        row.getCell(7).numFmt = '#,##0.00';
      }
      const buffer = await book.xlsx.writeBuffer();
      return reply
        .header('Content-Disposition', contentDisposition(`${name}.xlsx`))
        .type(XLSX)
        .send(Buffer.from(buffer));
    },
  });
}
