import { PassThrough } from 'node:stream';
import type { Language, SettlementRow } from '@portal/contracts';
import type { Currency } from '@portal/domain/money';
import { translate } from '@portal/i18n';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import { CSV_CONTENT_TYPE, csvAmount, csvWriter } from '../../lib/csv';
import { addMinor, minorOf } from '../../lib/minor';
import { safeCell } from '../../lib/spreadsheet-cells';
import { languageOf } from '../../services/users';
import { isFinanced } from './ledger';
import * as repo from './money.repository';
import { feeTermsOf, NO_FEE, rowFee } from './payouts';
import { settlementBgmax } from './settlement-bgmax';

/**
 * The money module's service (docs/MONEY.md): the ledger, payouts and settlements, the import of
 * incoming payments and their matching, the daily job and the ledger report. Outside this folder,
 * import from this file only (ARCHITECTURE.md "Modules"); the routes of the area are money.routes.ts
 * and the operator's, modules/backoffice-money/backoffice-money.routes.ts.
 */

export { runDailyJob } from './daily-job';
export { DAILY_JOB_HOUR, msUntilNextRun, startDailyScheduler } from './daily-scheduler';
export {
  balanceOf,
  claimIssuerDebt,
  getIssuerClaim,
  listAllClaims,
  listIssuerClaims,
  runDebtClaims,
} from './debt-claims';
export {
  type DeductionResolution,
  listOpenDeductions,
  type ResolvedDeduction,
  resolveDeduction,
} from './deductions';
export { type IncomingPayment, incomingPaymentsFile } from './incoming-payments-file';
export {
  bookPlanApproval,
  bookPlanInvoice,
  bookPlanTransfer,
  checkBooks,
  isFinanced,
  postJournal,
  recogniseInvoice,
  UnbalancedJournalError,
} from './ledger';
export { ledgerPage, ledgerRows, processOn } from './ledger-report';
export { operatorMoneyDay } from './money-dates';
export { acceptsPayment, assignPayment, importBgmaxFile, type PaymentsApplied } from './payment-import';
export { feeTermsOf, listHeldPayouts, NO_FEE, PLAN_SERVICE, rowFee, runPayout } from './payouts';
export { transferRecallInvoice } from './plan-replacement';

export { settlementBgmax } from './settlement-bgmax';

function settlementView(s: repo.SettlementWithDay) {
  return {
    settlementID: s.id,
    number: s.number,
    createdDate: s.day,
    payoutDate: s.payoutDate,
    currency: s.currency,
    grossMinor: s.grossMinor,
    feeMinor: s.feeMinor,
    totalPayoutMinor: s.totalPayoutMinor,
    rowCount: s.rowCount,
  };
}

/** The caller's settlements (transfer costs), newest first, filtered by created date. */
export async function listTransferCosts(
  db: Db,
  issuerId: string,
  q: { page: number; pageSize: number; from?: string | undefined; to?: string | undefined },
) {
  const { items, total } = await repo.listSettlements(db, issuerId, q);
  return { items: items.map(settlementView), total, page: q.page, pageSize: q.pageSize };
}

/** One settlement with a page of its rows; another issuer's is not found. */
export async function getTransferCost(
  db: Db,
  issuerId: string,
  id: string,
  q: { page: number; pageSize: number },
) {
  const settlement = await repo.findOwnSettlement(db, issuerId, id);
  const found = await repo.listSettlementRows(db, settlement.id, q.page, q.pageSize);
  return {
    settlement: settlementView(settlement),
    rows: {
      items: found.map(
        (f): SettlementRow => ({
          invoiceID: f.row.invoiceId,
          planID: f.row.planId,
          invoiceNumber: f.invoiceNumber,
          recipientName: f.recipientName,
          kind: f.row.kind,
          reference: f.deductionReference,
          grossMinor: f.row.grossMinor,
          feeMinor: f.row.feeMinor,
          netMinor: f.row.netMinor,
        }),
      ),
      total: settlement.rowCount,
      page: q.page,
      pageSize: q.pageSize,
    },
  };
}

/** The settlement as a BGMAX file for the customer's accounting, with its file name. */
export async function getTransferCostBgmax(db: Db, issuerId: string, id: string) {
  const settlement = await repo.findOwnSettlement(db, issuerId, id);
  const bankgiro = await repo.findCollectionBankgiro(db, issuerId);
  const found = await repo.listSettlementReferences(db, settlement.id);
  const bytes = settlementBgmax(
    settlement,
    bankgiro,
    found.map((f) => ({
      reference: f.deductionReference ?? f.ocr ?? f.invoiceNumber,
      netMinor: f.row.netMinor,
    })),
  );
  return { fileName: `avrakning-${settlement.number}.bgmax`, bytes };
}

/** Before sending: the fees and the payout the next payout run would make for these invoices. */
export async function previewFees(db: Db, issuerId: string, invoiceIDs: string[]) {
  const found = await repo.listOwnInvoices(db, issuerId, invoiceIDs);
  const terms = await feeTermsOf(db, [issuerId]);
  const items = found.map((i) => {
    const financed = isFinanced(i.service);
    const feeTerms = terms.get(`${issuerId}|${i.service}|${i.currency}`) ?? NO_FEE;
    // A financed invoice is paid out whole; one we only collect pays its fee when its payment is passed on.
    const feeMinor = rowFee(financed ? 'payout' : 'payment', i.toPayMinor, i.service, feeTerms, true);
    return {
      invoiceID: i.id,
      currency: i.currency,
      financed,
      grossMinor: i.toPayMinor,
      feeMinor,
      netMinor: i.toPayMinor - feeMinor,
    };
  });
  const totals = new Map<
    string,
    { currency: string; grossMinor: number; feeMinor: number; netMinor: number }
  >();
  for (const item of items) {
    const t = totals.get(item.currency) ?? {
      currency: item.currency,
      grossMinor: 0,
      feeMinor: 0,
      netMinor: 0,
    };
    t.grossMinor = addMinor(t.grossMinor, item.grossMinor);
    t.feeMinor = addMinor(t.feeMinor, item.feeMinor);
    t.netMinor = addMinor(t.netMinor, item.netMinor);
    totals.set(item.currency, t);
  }
  return { items, totals: [...totals.values()] };
}

function paymentView(f: repo.PaymentFound) {
  return {
    paymentID: f.p.id,
    paymentDate: f.p.paymentDate,
    invoiceID: f.p.invoiceId ?? '',
    invoiceNumber: f.invoiceNumber,
    recipientName: f.recipientName,
    reference: f.p.reference,
    payerName: f.p.payerName,
    currency: f.p.currency,
    amountMinor: f.p.amountMinor,
    appliedMinor: f.p.appliedMinor,
    overpaidMinor: f.p.overpaidMinor,
    deduction: f.p.status === 'deduction' ? f.p.deductionAction : null,
  };
}

/** Payments received on the caller's invoices in a date range, by recipient and invoice, with totals. */
export async function getPaymentsReport(
  db: Db,
  issuerId: string,
  q: repo.PaymentsFilter & { page: number; pageSize: number },
) {
  const { found, sums } = await repo.listPayments(db, issuerId, q);
  return {
    items: found.map(paymentView),
    total: sums.reduce((s, t) => s + t.count, 0),
    page: q.page,
    pageSize: q.pageSize,
    totals: sums.map((t) => ({ currency: t.currency, count: t.count, amountMinor: minorOf(t.amountMinor) })),
  };
}

/**
 * The payments report as a file streamed out in batches (Excel or CSV) in `language`, or the user's
 * stored language: the caller sends `stream` with the content type and file name.
 */
export async function exportPaymentsReport(
  db: Db,
  who: { issuerId: string; userId: string },
  q: repo.PaymentsFilter & { format: 'csv' | 'excel'; language?: Language | undefined },
) {
  const language = q.language ?? (await languageOf(db, who.userId));
  const t = (key: string) => translate(language, 'documents', `paymentsReport.columns.${key}`);
  const header = [
    'paymentDate',
    'invoiceNumber',
    'recipient',
    'reference',
    'payer',
    'amount',
    'applied',
    'overpaid',
    'currency',
    'deduction',
  ].map(t);
  /** How a resolved deduction was handled, blank for a payment (docs/MONEY.md "Deductions (TK21)"). */
  const handled = (v: ReturnType<typeof paymentView>) =>
    v.deduction ? translate(language, 'documents', `paymentsReport.deduction.${v.deduction}`) : '';
  const name = `${translate(language, 'documents', 'paymentsReport.filename')}-${q.from}-${q.to}`;
  /** Every payment of the report, batch by batch, for `write` to put into the file. */
  const eachPayment = async (write: (v: ReturnType<typeof paymentView>) => void) => {
    let after: { date: string; id: string } | null = null;
    for (;;) {
      const batch = await repo.listPaymentsAfter(db, who.issuerId, q, after);
      for (const f of batch) write(paymentView(f));
      const last = batch.at(-1);
      if (!last || batch.length < repo.PAYMENTS_EXPORT_BATCH) break;
      after = { date: last.p.paymentDate, id: last.p.id };
    }
  };
  const out = new PassThrough();
  if (q.format === 'csv') {
    const csv = csvWriter(language);
    void (async () => {
      out.write(csv.start(header));
      await eachPayment((v) => {
        const currency = v.currency as Currency;
        out.write(
          csv.record([
            v.paymentDate,
            v.invoiceNumber,
            v.recipientName,
            v.reference,
            v.payerName,
            csvAmount(v.amountMinor, currency),
            csvAmount(v.appliedMinor, currency),
            csvAmount(v.overpaidMinor, currency),
            v.currency,
            handled(v),
          ]),
        );
      });
      out.end();
    })().catch((error) => out.destroy(error));
    return { stream: out, fileName: `${name}.csv`, contentType: CSV_CONTENT_TYPE };
  }
  void (async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    const sheet = book.addWorksheet(translate(language, 'documents', 'paymentsReport.sheet'));
    sheet.columns = header.map((h, i) => ({ header: h, width: i === 2 || i === 4 || i === 9 ? 30 : 16 }));
    await eachPayment((v) => {
      const row = sheet.addRow(
        [
          v.paymentDate,
          v.invoiceNumber,
          v.recipientName,
          v.reference,
          v.payerName,
          v.amountMinor / 100,
          v.appliedMinor / 100,
          v.overpaidMinor / 100,
          v.currency,
          handled(v),
        ].map((c) => safeCell(c)),
      );
      for (const c of [6, 7, 8]) row.getCell(c).numFmt = '#,##0.00';
      row.commit();
    });
    await sheet.commit();
    await book.commit();
  })().catch((error) => out.destroy(error));
  return {
    stream: out,
    fileName: `${name}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  };
}
