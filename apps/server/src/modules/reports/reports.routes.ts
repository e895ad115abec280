import {
  activeRegressQuerySchema,
  isoDateSchema,
  LANGUAGES,
  languageQuerySchema,
  ledgerExportQuerySchema,
  ledgerQuerySchema,
  ledgerResponseSchema,
  REPORT_FILE_TYPES,
} from '@portal/contracts';
import { z } from 'zod';
import { ApiError } from '../../lib/errors';
import { issuerQuery, routeModule, sendFile, signedIn } from '../../routes/define';
import * as reports from './reports.service';

/** Answers a report file download (sendFile: its name, type and bytes or stream). */
const answerFile = (reply: Parameters<typeof sendFile>[0], file: reports.ReportFile) =>
  sendFile(reply, file.fileName, file.contentType, file.body);

/**
 * The reports downloaded from the menu: active invoices (Excel), the active regress report and the
 * ledger (PDF/Excel). HTTP only; the files are made in reports.service.ts.
 */
export const reportsRoutes = routeModule(['reports'], (route, ctx) => {
  route(
    'downloadActiveInvoices',
    'All the caller’s active invoices (not paid, partly paid) as an Excel file, streamed',
    { querystring: languageQuerySchema },
    async (request, reply) =>
      answerFile(
        reply,
        await reports.downloadActiveInvoices(ctx.db, signedIn(request), request.query.language, ctx.now()),
      ),
  );
  route(
    'downloadActiveRegress',
    'Invoices of recourse services whose recourse date falls in [from, to], as PDF or Excel',
    {
      querystring: z
        .object({
          from: isoDateSchema,
          to: isoDateSchema,
          fileType: z.enum(REPORT_FILE_TYPES),
          language: z.enum(LANGUAGES).optional(),
        })
        .passthrough(),
    },
    async (request, reply) => {
      const auth = signedIn(request);
      const parsed = activeRegressQuerySchema.safeParse(request.query);
      if (!parsed.success) {
        const wrongRange = parsed.error.issues.some((i) => i.message === 'reports.wrong_date_range');
        throw new ApiError(wrongRange ? 'reports.wrong_date_range' : 'validation.invalid');
      }
      return answerFile(
        reply,
        await reports.downloadActiveRegress(ctx.db, auth, parsed.data, request.query.language),
      );
    },
  );
  route(
    'getLedgerReport',
    'The open ledger as of a date: invoices on our book then, with their remaining amount then',
    { querystring: ledgerQuerySchema, ok: ledgerResponseSchema },
    issuerQuery(ctx, reports.getLedgerReport),
  );
  route(
    'exportLedgerReport',
    'The open ledger as of a date as Excel or PDF, in the user’s language',
    { querystring: ledgerExportQuerySchema.and(languageQuerySchema) },
    async (request, reply) =>
      answerFile(
        reply,
        await reports.exportLedgerReport(ctx.db, signedIn(request), request.query, request.query.language),
      ),
  );
});
