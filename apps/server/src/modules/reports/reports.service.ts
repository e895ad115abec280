import { PassThrough } from 'node:stream';
import {
  type ActiveRegressQuery,
  type Language,
  LEDGER_COLUMNS,
  type LedgerExportQuery,
} from '@portal/contracts';
import { formatAmount } from '@portal/domain/money';
import { recourseDate } from '@portal/domain/money-flow';
import { translate } from '@portal/i18n';
import ExcelJS from 'exceljs';
import type { AuthContext } from '../../context';
import type { Db } from '../../db/client';
import { safeCell } from '../../lib/spreadsheet-cells';
import { todayIn } from '../../lib/today';
import { languageOf } from '../../services/users';
import { ledgerPage, ledgerRows } from '../money/money.service';
import * as repo from './reports.repository';
import { renderTablePdf } from './table-pdf';

/**
 * The reports downloaded from the menu (spec §3, §4): active invoices (Excel, streamed), the active
 * regress report and the open ledger (PDF or Excel), in the language the page asks for, else the user's.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Rows read from the database per round trip while a file streams out. */
const BATCH = 2_000;

/** Minor units as the number Excel shows with two decimals (SEK and EUR have two). */
const excelAmount = (minor: number) => minor / 100;

/** The `#,##0.00` of the money columns in every sheet. */
const MONEY_FORMAT = '#,##0.00';

/** A report file: its name, its type and its bytes (or a stream of them). */
export interface ReportFile {
  fileName: string;
  contentType: string;
  body: Buffer | PassThrough;
}

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

/** `downloadActiveInvoices`: every active invoice (not paid, partly paid) as an Excel file, streamed. */
export async function downloadActiveInvoices(
  db: Db,
  auth: AuthContext,
  requested: Language | undefined,
  now: Date,
): Promise<ReportFile> {
  const language = requested ?? (await languageOf(db, auth.userId));
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
  const today = todayIn(now);
  const out = new PassThrough();
  void (async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    const sheet = book.addWorksheet(t('sheet'));
    sheet.columns = header.map((h, i) => ({ header: h, width: i === 4 ? 32 : 16 }));
    let after: repo.ActiveAfter | null = null;
    for (;;) {
      const batch = await repo.activeInvoicesPage(db, auth.issuerId, after, BATCH);
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
  return { fileName: `${t('filename')}-${today}.xlsx`, contentType: XLSX, body: out };
}

/** `downloadActiveRegress`: invoices of recourse services whose recourse date falls in [from, to]. */
export async function downloadActiveRegress(
  db: Db,
  auth: AuthContext,
  query: ActiveRegressQuery,
  requested: Language | undefined,
): Promise<ReportFile> {
  const { from, to, fileType } = query;
  const language = requested ?? (await languageOf(db, auth.userId));
  const t = (key: string, vars?: Record<string, string>) =>
    translate(language, 'reports', `regress.${key}`, vars);
  const found = await repo.activeRegressRows(db, auth.issuerId, from, to);
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
    return { fileName: `${name}.pdf`, contentType: 'application/pdf', body: Buffer.from(bytes) };
  }
  const book = await excelFile(t('sheet'), header, {
    width: (i) => (i === 1 ? 32 : 16),
    moneyColumns: [7],
    rows: rows.map((r) => cells(r, excelAmount)),
  });
  return { fileName: `${name}.xlsx`, contentType: XLSX, body: Buffer.from(book) };
}

/** `getLedgerReport`: the open ledger as of a date (money.service.ts). */
export function getLedgerReport(db: Db, issuerId: string, query: Parameters<typeof ledgerPage>[2]) {
  return ledgerPage(db, issuerId, query);
}

/** `exportLedgerReport`: the open ledger as of a date as Excel or PDF, with totals per currency. */
export async function exportLedgerReport(
  db: Db,
  auth: AuthContext,
  query: LedgerExportQuery,
  requested: Language | undefined,
): Promise<ReportFile> {
  const { date, fileType } = query;
  const language = requested ?? (await languageOf(db, auth.userId));
  const t = (key: string, vars?: Record<string, string>) =>
    translate(language, 'reports', `ledger.${key}`, vars);
  const found = await ledgerRows(db, auth.issuerId, date);
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
    return { fileName: `${name}.pdf`, contentType: 'application/pdf', body: Buffer.from(bytes) };
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
  return { fileName: `${name}.xlsx`, contentType: XLSX, body: Buffer.from(book) };
}
