import { INVOICE_TOTAL_CODES, type invoiceBodySchema, MAX_INVOICE_TOTAL_MINOR } from '@portal/contracts';
import { nextInvoiceNumber } from '@portal/domain/due-date';
import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { createOcrReference } from '@portal/domain/ocr-reference';
import { invoiceRotRutIssues, isRotRutAvailable } from '@portal/domain/rot-rut';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import { nextCounterValue } from '../../db/issuer-counters';
import { invoices } from '../../db/schema';
import { ApiError } from '../../lib/errors';

type ParsedInvoice = z.output<typeof invoiceBodySchema>;

export interface StoredTotals {
  rowNetMinor: number[];
  vatLines: { vatBasisPoints: number; netMinor: number; vatMinor: number }[];
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
  deductionMinor: number;
  toPayMinor: number;
}

/**
 * The stored totals of an invoice, from the same domain function the browser uses for its live
 * figures. ROT/RUT applies to Swedish issuers invoicing in SEK; its percentage is the one in force on
 * the due date (the buyer's expected payment date).
 */
export function computeInvoice(invoice: ParsedInvoice, country: 'SE' | 'FI'): StoredTotals {
  const { rotRut } = invoice;
  if (rotRut.type !== 'none') checkRotRut(invoice, country);
  const rows = invoice.rows.map((r) => ({
    quantity: r.quantityMilli,
    unitPriceMinor: r.unitPriceMinor,
    vatBasisPoints: r.vatBasisPoints,
    kind: r.rotRut ? ('labour' as const) : ('other' as const),
  }));
  let totals: ReturnType<typeof computeInvoiceTotals>;
  try {
    // First without ROT/RUT: a RangeError here is a sum outside the safe integers, the rows' fault.
    totals = computeInvoiceTotals(rows, null);
  } catch (err) {
    if (err instanceof RangeError)
      throw new ApiError('invoices.invalid', { issues: [{ path: 'rows', code: 'validation.amount_range' }] });
    throw err;
  }
  if (rotRut.type !== 'none') {
    try {
      totals = computeInvoiceTotals(rows, { type: rotRut.type, paymentDate: invoice.dueDate });
    } catch (err) {
      // With the sums known to fit, what is left: no ROT/RUT percentage known for that payment date.
      if (err instanceof RangeError)
        throw new ApiError('invoices.rot_rut_invalid', {
          issues: [{ path: 'dueDate', code: 'invoices.rot_rut_invalid' }],
        });
      throw err;
    }
  }
  checkInvoiceTotals(totals);
  return {
    rowNetMinor: totals.rowNetsMinor,
    vatLines: totals.vatByRate.map((v) => ({
      vatBasisPoints: v.vatBasisPoints,
      netMinor: v.netMinor,
      vatMinor: v.vatMinor,
    })),
    netMinor: totals.netMinor,
    vatMinor: totals.vatMinor,
    grossMinor: totals.grossMinor,
    deductionMinor: totals.taxReductionMinor,
    toPayMinor: totals.toPayMinor,
  };
}

/**
 * The bound of every stored invoice (docs/MONEY.md "Money bounds"), checked where totals are computed
 * whatever route the body came by: the total incl. VAT at most `MAX_INVOICE_TOTAL_MINOR`, and what the
 * buyer pays above zero (a ROT/RUT deduction can exceed a total cut down by discount rows). The
 * contract's rows rule refuses most such bodies first; this is the rule itself.
 */
export function checkInvoiceTotals(totals: { grossMinor: number; toPayMinor: number }): void {
  const code = invoiceTotalCode(totals);
  if (code) throw new ApiError('invoices.invalid', { issues: [{ path: 'rows', code }] });
}

/** The code of the broken total rule of stored totals, or null when they are in range. */
export function invoiceTotalCode(totals: { grossMinor: number; toPayMinor: number }): string | null {
  if (!Number.isSafeInteger(totals.grossMinor) || totals.grossMinor > MAX_INVOICE_TOTAL_MINOR)
    return INVOICE_TOTAL_CODES.range;
  if (totals.grossMinor <= 0 || !(totals.toPayMinor > 0)) return INVOICE_TOTAL_CODES.positive;
  return null;
}

function checkRotRut(invoice: ParsedInvoice, country: 'SE' | 'FI'): void {
  const issues: { path: string; code: string }[] = [];
  if (!isRotRutAvailable(country, invoice.currency))
    issues.push({ path: 'rotRut.type', code: 'invoices.rot_rut_invalid' });
  issues.push(...invoiceRotRutIssues(invoice));
  if (issues.length > 0) throw new ApiError('invoices.rot_rut_invalid', { issues });
}

/** How many numbers of the sequence `nextOcrReference` skips at most before giving up. */
const OCR_SKIP_LIMIT = 1000;

/**
 * The next OCR reference of the issuer: a per-issuer sequence with the length and check digits. A
 * number a customer already uses as an invoice's own OCR reference (`/invoice/upload`) is skipped,
 * so sending never trips over the unique index on (issuer, ocr).
 */
export async function nextOcrReference(tx: Tx, issuerId: string): Promise<string> {
  for (let attempt = 0; attempt < OCR_SKIP_LIMIT; attempt++) {
    const ocr = createOcrReference(100_000 + (await nextCounterValue(tx, issuerId, 'ocr')));
    const [taken] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.issuerId, issuerId), eq(invoices.ocr, ocr)))
      .limit(1);
    if (!taken) return ocr;
  }
  throw new ApiError('server.internal');
}

export function suggestNextInvoiceNumber(existing: string[]): string {
  return nextInvoiceNumber([...existing].reverse(), '1001');
}
