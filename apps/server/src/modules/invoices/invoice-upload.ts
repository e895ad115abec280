import {
  INVOICE_LIMITS,
  type InvoiceBody,
  type Language,
  QUANTITY_SCALE,
  type uploadInvoiceBodySchema,
} from '@portal/contracts';
import { translate } from '@portal/i18n';
import type { z } from 'zod';

type ParsedUpload = z.output<typeof uploadInvoiceBodySchema>;

/**
 * The name of the rows of an uploaded invoice ("Enligt bifogad faktura"): the rows only stand for the
 * customer's own PDF, which is the real invoice. In the registering user's chosen language, else the
 * language of the issuer's country (the UI language a user picks on the login page is not stored).
 */
export function uploadedRowName(userLanguage: Language | null, country: 'SE' | 'FI'): string {
  const language = userLanguage ?? (country === 'FI' ? 'fi-FI' : 'sv-SE');
  return translate(language, 'documents', 'uploadedInvoice.row').slice(0, INVOICE_LIMITS.rowName);
}

/**
 * An uploaded invoice as the register body every invoice is written from (docs/INVOICES.md, "Register
 * by upload"): one row per VAT rate, quantity 1 (unit `st`) at the net the customer read from its
 * PDF. `writeInvoice` then checks the currency, rates, recipient and dates and stores the totals of
 * `computeInvoiceTotals`, so VAT is the rate's net × rate rounded once, as on any invoice we store.
 */
export function uploadedInvoiceBody(upload: ParsedUpload, rowName: string): InvoiceBody {
  return {
    recipientID: upload.recipientID,
    invoiceNumber: upload.invoiceNumber,
    service: upload.service,
    currency: upload.currency,
    invoiceDate: upload.invoiceDate,
    dueDate: upload.dueDate,
    orderReference: upload.orderReference,
    issuerContact: upload.issuerContact,
    recipientContact: upload.recipientContact,
    rows: upload.amounts.map((line) => ({
      name: rowName,
      quantityMilli: QUANTITY_SCALE,
      unit: 'st',
      unitPriceMinor: line.netMinor,
      vatBasisPoints: line.vatBasisPoints,
    })),
    attachmentIDs: upload.attachmentIDs,
    invoiceFileID: upload.invoiceFileID,
  };
}
