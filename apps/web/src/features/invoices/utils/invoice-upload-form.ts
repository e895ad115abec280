import {
  type Language,
  QUANTITY_SCALE,
  UPLOAD_AMOUNT_LINES_MAX,
  type UploadInvoiceBody,
  uploadedAmountSchema,
  uploadInvoiceBodySchema,
} from '@portal/contracts';
import { computeInvoiceTotals, type InvoiceTotals } from '@portal/domain/invoice-totals';
import { parseMoney } from '@portal/domain/money';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import type { InvoiceFile } from '../api/upload-file';
import {
  blankInvoiceTerms,
  formResolver,
  type InvoiceTermsValues,
  invoiceTermsShape,
  type NewInvoiceOptions,
  selectedVatRateSchema,
  TERMS_FIELDS,
  termsIssues,
  termsOf,
  typedAmountSchema,
} from './invoice-form';

/** One VAT rate of the uploaded invoice as typed: the amount excl. VAT and the rate's select value. */
export interface UploadAmountLine {
  net: string;
  vatBasisPoints: string;
}

/** What the upload form holds; `invoiceUploadFormResolver` turns it into the `uploadInvoiceBodySchema` body. */
export interface InvoiceUploadFormValues extends InvoiceTermsValues {
  /** The uploaded PDF of the invoice itself, null until one is chosen. */
  invoiceFile: InvoiceFile | null;
  ocr: string;
  amounts: UploadAmountLine[];
}

export function emptyAmountLine(vatBasisPoints: number | undefined): UploadAmountLine {
  return { net: '', vatBasisPoints: vatBasisPoints === undefined ? '' : String(vatBasisPoints) };
}

/** A new upload: no file yet, the register form's new terms, one amount line at the first VAT rate. */
export function blankUploadForm(options: NewInvoiceOptions): InvoiceUploadFormValues {
  return {
    ...blankInvoiceTerms(options),
    invoiceFile: null,
    ocr: '',
    amounts: [emptyAmountLine(options.vatBasisPoints)],
  };
}

const upload = uploadInvoiceBodySchema.shape;
const amount = uploadedAmountSchema.shape;

/**
 * The upload form's schema: the terms as in the register form, the file, own OCR reference and amount
 * lines through the contract's own pieces of `uploadInvoiceBodySchema` (so a missing file is
 * `files.required` here as on the server), the typed amounts read in the user's language.
 */
export function invoiceUploadFormSchema(language: Language) {
  const line = z
    .object({
      net: typedAmountSchema(language, amount.netMinor),
      vatBasisPoints: selectedVatRateSchema(amount.vatBasisPoints),
    })
    .transform((l) => ({ vatBasisPoints: l.vatBasisPoints, netMinor: l.net }));
  return z
    .object({
      ...invoiceTermsShape,
      invoiceFile: z
        .custom<InvoiceFile | null>()
        .transform((file) => file?.fileID ?? '')
        .pipe(upload.invoiceFileID),
      ocr: upload.ocr,
      amounts: z.array(line).pipe(upload.amounts),
    })
    .transform(
      (v): UploadInvoiceBody => ({
        invoiceFileID: v.invoiceFile,
        ...termsOf(v),
        ocr: v.ocr ?? '',
        amounts: v.amounts,
        attachmentIDs: [],
      }),
    );
}

export function invoiceUploadFormResolver(
  language: Language,
): Resolver<InvoiceUploadFormValues, unknown, UploadInvoiceBody> {
  return formResolver<InvoiceUploadFormValues, UploadInvoiceBody>(
    invoiceUploadFormSchema(language),
    termsIssues,
  );
}

/**
 * The live totals of the typed amounts: `computeInvoiceTotals` over one row of quantity 1 per VAT rate,
 * exactly what the server stores for an uploaded invoice. Lines that cannot be read yet are left out;
 * null when the amounts cannot be added up.
 */
export function uploadLiveTotals(
  amounts: readonly UploadAmountLine[],
  language: Language,
): InvoiceTotals | null {
  const rows = amounts.flatMap((line) => {
    const net = parseMoney(line.net, { locale: language });
    const vat = /^\d+$/.test(line.vatBasisPoints) ? Number(line.vatBasisPoints) : Number.NaN;
    if (!net.ok || !Number.isInteger(vat) || vat > 10_000) return [];
    return [{ quantity: QUANTITY_SCALE, unitPriceMinor: net.minor, vatBasisPoints: vat }];
  });
  try {
    return computeInvoiceTotals(rows);
  } catch {
    return null;
  }
}

/** Most amount lines: one per VAT rate the issuer has, within the contract's limit. */
export function maxAmountLines(taxRateCount: number): number {
  return Math.min(Math.max(1, taxRateCount), UPLOAD_AMOUNT_LINES_MAX);
}

/** Where a server issue's path (`amounts.0.netMinor`, `invoiceFileID`) shows in the upload form. */
export function uploadFormPathOf(path: string): string | null {
  if (path === 'recipientID') return 'recipient';
  if (path === 'invoiceFileID') return 'invoiceFile';
  if (path === 'amounts') return 'amounts';
  const line = /^amounts\.(\d+)\.(netMinor|vatBasisPoints)$/.exec(path);
  if (line) return `amounts.${line[1]}.${line[2] === 'netMinor' ? 'net' : 'vatBasisPoints'}`;
  return path === 'ocr' || TERMS_FIELDS.includes(path) ? path : null;
}
