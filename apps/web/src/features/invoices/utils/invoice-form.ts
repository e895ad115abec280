// Over 500 lines on purpose: the invoice form's model in one place (the values as typed, their parsing
// into the contract's body, the cross-field rules and the totals shown live).
import { toNestErrors } from '@hookform/resolvers';
import {
  duplicateInvoiceDetailsSchema,
  INVOICE_LIMITS,
  type InvoiceBody,
  type InvoiceDetail,
  invoiceBodySchema,
  invoiceRowBodySchema,
  type Language,
  ROT_RUT_TYPES,
  refineInvoiceTotal,
  rotRutBodySchema,
  type ServiceType,
  type Unit,
} from '@portal/contracts';
import { isValidIsoDate } from '@portal/domain/calendar-date';
import {
  DEFAULT_PAYMENT_TERMS_DAYS,
  dueDate as dueDateOf,
  isDueBeforeInvoiceDate,
  paymentTermsDays,
} from '@portal/domain/due-date';
import {
  computeInvoiceTotals,
  type InvoiceRowInput,
  type InvoiceTotals,
} from '@portal/domain/invoice-totals';
import { formatAmount, type MoneyParseError, parseMoney } from '@portal/domain/money';
import { formatQuantity, parseQuantity, type QuantityParseError } from '@portal/domain/quantity';
import { invoiceRotRutIssues, isRotRutAvailable } from '@portal/domain/rot-rut';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';
import { formatDate } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';

export type RotRutType = (typeof ROT_RUT_TYPES)[number];

export interface PickedRecipient {
  recipientID: string;
  name: string;
}

/** One row as the form holds it: quantity and price as typed, the VAT rate as the select's value. */
export interface InvoiceFormRow {
  articleNumber: string;
  name: string;
  description: string;
  quantity: string;
  unit: Unit;
  price: string;
  vatBasisPoints: string;
  /** A labour row counts for the ROT/RUT deduction. */
  rotRut: boolean;
}

export interface InvoiceFormRotRut {
  type: RotRutType;
  personalNumber: string;
  propertyDesignation: string;
  housingCoopNumber: string;
}

/** The recipient and terms of an invoice as a form holds them: the register form's and the upload's. */
export interface InvoiceTermsValues {
  recipient: PickedRecipient | null;
  invoiceNumber: string;
  service: ServiceType;
  currency: string;
  invoiceDate: string;
  /** Only a help to set the due date; not sent. */
  paymentTermsDays: string;
  dueDate: string;
  orderReference: string;
  issuerContact: string;
  recipientContact: string;
}

/** What the invoice form holds; `invoiceFormResolver` turns it into the `invoiceBodySchema` body. */
export interface InvoiceFormValues extends InvoiceTermsValues {
  rows: InvoiceFormRow[];
  rotRut: InvoiceFormRotRut;
}

export interface InvoiceFormContext {
  language: Language;
  /** ROT/RUT exists only for Swedish issuers invoicing in SEK. */
  issuerCountry: 'SE' | 'FI';
}

const NO_ROT_RUT: InvoiceFormRotRut = {
  type: 'none',
  personalNumber: '',
  propertyDesignation: '',
  housingCoopNumber: '',
};

/** The code each refusal of the amount parser shows. */
export const PRICE_ERROR_CODES: Record<MoneyParseError, string> = {
  empty: 'validation.required',
  invalid: 'invoices:form.errors.price_invalid',
  too_many_decimals: 'validation.whole_minor_units',
  out_of_range: 'validation.amount_range',
};

/** The code each refusal of the quantity parser shows. */
export const QUANTITY_ERROR_CODES: Record<QuantityParseError, string> = {
  empty: 'validation.required',
  invalid: 'invoices:form.errors.quantity_invalid',
  too_many_decimals: 'invoices:form.errors.quantity_decimals',
  out_of_range: 'validation.amount_range',
};

export function emptyRow(vatBasisPoints: number | undefined): InvoiceFormRow {
  return {
    articleNumber: '',
    name: '',
    description: '',
    quantity: '',
    unit: 'st',
    price: '',
    vatBasisPoints: vatBasisPoints === undefined ? '' : String(vatBasisPoints),
    rotRut: false,
  };
}

/** True when nothing has been typed into the row, so an article may fill it instead of adding one. */
export function isBlankRow(row: InvoiceFormRow): boolean {
  return [row.articleNumber, row.name, row.description, row.quantity, row.price].every(
    (v) => v.trim() === '',
  );
}

/** What a new invoice's form starts from: today, the home currency, the first VAT rate, a suggested number. */
export interface NewInvoiceOptions {
  today: string;
  currency: string;
  vatBasisPoints: number | undefined;
  invoiceNumber: string;
}

/** New terms: no recipient yet, the suggested number, dated today and due after the default terms. */
export function blankInvoiceTerms(options: Omit<NewInvoiceOptions, 'vatBasisPoints'>): InvoiceTermsValues {
  return {
    recipient: null,
    invoiceNumber: options.invoiceNumber,
    service: 'factoring',
    currency: options.currency,
    invoiceDate: options.today,
    paymentTermsDays: String(DEFAULT_PAYMENT_TERMS_DAYS),
    dueDate: dueDateOf(options.today, DEFAULT_PAYMENT_TERMS_DAYS),
    orderReference: '',
    issuerContact: '',
    recipientContact: '',
  };
}

/** A new invoice: dated today, due after the default terms, one empty row. */
export function blankInvoiceForm(options: NewInvoiceOptions): InvoiceFormValues {
  return {
    ...blankInvoiceTerms(options),
    rows: [emptyRow(options.vatBasisPoints)],
    rotRut: { ...NO_ROT_RUT },
  };
}

/**
 * An existing invoice in the form. `edit` keeps everything; `duplicate` keeps the recipient, service,
 * references, rows and ROT/RUT details but is dated today with the same payment terms and takes
 * `invoiceNumber` (a new suggestion), since the number is unique per issuer.
 */
export function invoiceToForm(
  invoice: InvoiceDetail,
  mode: 'edit' | 'duplicate',
  options: { language: Language; today: string; invoiceNumber: string },
): InvoiceFormValues {
  const terms = paymentTermsDays(invoice.invoiceDate, invoice.dueDate) ?? 0;
  const invoiceDate = mode === 'edit' ? invoice.invoiceDate : options.today;
  return {
    recipient: { recipientID: invoice.recipientID, name: invoice.recipientName },
    invoiceNumber: mode === 'edit' ? invoice.invoiceNumber : options.invoiceNumber,
    service: invoice.service,
    currency: invoice.currency,
    invoiceDate,
    paymentTermsDays: String(terms),
    dueDate: mode === 'edit' ? invoice.dueDate : dueDateOf(invoiceDate, terms),
    orderReference: invoice.orderReference,
    issuerContact: invoice.issuerContact,
    recipientContact: invoice.recipientContact,
    rows: invoice.rows.map((row) => ({
      articleNumber: row.articleNumber ?? '',
      name: row.name,
      description: row.description ?? '',
      quantity: formatQuantity(row.quantityMilli, options.language),
      unit: row.unit,
      price: formatAmount(row.unitPriceMinor, options.language),
      vatBasisPoints: String(row.vatBasisPoints),
      rotRut: row.rotRut ?? false,
    })),
    rotRut: {
      type: invoice.rotRut.type ?? 'none',
      personalNumber: invoice.rotRut.personalNumber ?? '',
      propertyDesignation: invoice.rotRut.propertyDesignation ?? '',
      housingCoopNumber: invoice.rotRut.housingCoopNumber ?? '',
    },
  };
}

/** The due date for a changed invoice date or payment terms; null while either cannot be read. */
export function dueDateFor(invoiceDate: string, paymentTermsDays: string): string | null {
  if (!isValidIsoDate(invoiceDate) || !/^\d{1,4}$/.test(paymentTermsDays.trim())) return null;
  try {
    return dueDateOf(invoiceDate, Number(paymentTermsDays.trim()));
  } catch {
    return null;
  }
}

/** The payment terms a typed due date gives; null when it cannot be read or is before the invoice date. */
export function paymentTermsFor(invoiceDate: string, dueDate: string): string | null {
  const days = paymentTermsDays(invoiceDate, dueDate);
  return days === null ? null : String(days);
}

const body = invoiceBodySchema.shape;
const rowBody = invoiceRowBodySchema.shape;
const rotRutBody = rotRutBodySchema.shape;

/**
 * The checks of the recipient and terms fields, each the contract's own piece of `invoiceBodySchema`;
 * the recipient picked becomes its id. Shared by the register form and the upload form.
 */
export const invoiceTermsShape = {
  recipient: z
    .custom<PickedRecipient | null>()
    .transform((picked) => picked?.recipientID ?? '')
    .pipe(body.recipientID),
  invoiceNumber: body.invoiceNumber,
  service: body.service,
  currency: body.currency,
  invoiceDate: body.invoiceDate,
  paymentTermsDays: z.string(),
  dueDate: body.dueDate,
  orderReference: body.orderReference,
  issuerContact: body.issuerContact,
  recipientContact: body.recipientContact,
};

/** The checked terms fields (`invoiceTermsShape`) as the body fields both invoice bodies share. */
export function termsOf(v: {
  recipient: string;
  invoiceNumber: string;
  service: InvoiceBody['service'];
  currency: string;
  invoiceDate: string;
  dueDate: string;
  orderReference: string;
  issuerContact: string;
  recipientContact: string;
}) {
  return {
    recipientID: v.recipient,
    invoiceNumber: v.invoiceNumber.trim(),
    service: v.service,
    currency: v.currency,
    invoiceDate: v.invoiceDate,
    dueDate: v.dueDate,
    orderReference: v.orderReference,
    issuerContact: v.issuerContact,
    recipientContact: v.recipientContact,
  };
}

/** A typed amount read into minor units in the user's language, then checked by `amount`. */
export function typedAmountSchema(language: Language, amount: z.ZodType<number, number>) {
  return z
    .string()
    .transform((text, ctx) => {
      const result = parseMoney(text, { locale: language });
      if (result.ok) return result.minor;
      ctx.addIssue({ code: 'custom', message: PRICE_ERROR_CODES[result.error] });
      return z.NEVER;
    })
    .pipe(amount);
}

/** A VAT rate's select value (basis points as text; empty when none is chosen), then checked by `rate`. */
export function selectedVatRateSchema(rate: z.ZodType<number, number>) {
  return z.string().regex(/^\d+$/, 'validation.required').transform(Number).pipe(rate);
}

/**
 * The invoice form's schema: each field is checked by the contract's own piece of
 * `invoiceBodySchema` (so the browser and the server refuse the same input with the same codes),
 * after the typed quantity and price are read into integers in the user's language. The output is
 * the request body; ROT/RUT is sent only where it applies.
 */
export function invoiceFormSchema({ language, issuerCountry }: InvoiceFormContext) {
  const row = z
    .object({
      articleNumber: rowBody.articleNumber,
      name: rowBody.name,
      description: rowBody.description,
      quantity: z
        .string()
        .transform((text, ctx) => {
          const result = parseQuantity(text, language);
          if (result.ok) return result.milli;
          ctx.addIssue({ code: 'custom', message: QUANTITY_ERROR_CODES[result.error] });
          return z.NEVER;
        })
        .pipe(rowBody.quantityMilli),
      unit: rowBody.unit,
      price: typedAmountSchema(language, rowBody.unitPriceMinor),
      vatBasisPoints: selectedVatRateSchema(rowBody.vatBasisPoints),
      rotRut: z.boolean(),
    })
    .transform((r) => ({
      articleNumber: r.articleNumber,
      name: r.name,
      description: r.description,
      quantityMilli: r.quantity,
      unit: r.unit,
      unitPriceMinor: r.price,
      vatBasisPoints: r.vatBasisPoints,
      rotRut: r.rotRut,
    }));

  return z
    .object({
      ...invoiceTermsShape,
      // The contract's total rule (at most MAX_INVOICE_TOTAL_MINOR, above zero) on the read rows.
      rows: z
        .array(row)
        .min(1, 'validation.rows_required')
        .max(INVOICE_LIMITS.rows)
        .superRefine(refineInvoiceTotal),
      rotRut: z.object({
        type: z.enum(ROT_RUT_TYPES),
        personalNumber: rotRutBody.personalNumber,
        propertyDesignation: rotRutBody.propertyDesignation,
        housingCoopNumber: rotRutBody.housingCoopNumber,
      }),
    })
    .transform(
      (v): InvoiceBody => ({
        ...termsOf(v),
        rows: v.rows,
        rotRut: isRotRutAvailable(issuerCountry, v.currency) ? v.rotRut : { ...NO_ROT_RUT },
        attachmentIDs: [],
      }),
    );
}

/** The rule across the terms fields, as the server checks it: the due date not before the invoice date. */
export function termsIssues(values: InvoiceTermsValues): Map<string, string> {
  const issues = new Map<string, string>();
  if (isDueBeforeInvoiceDate(values.invoiceDate, values.dueDate))
    issues.set('dueDate', 'validation.due_before_invoice_date');
  return issues;
}

/**
 * The rules that span several fields, as the server checks them (apps/server invoice-math): the due
 * date not before the invoice date, and for ROT/RUT a valid personnummer, a property or a housing
 * cooperative for ROT, and at least one labour row. Returns form path → code.
 */
export function crossFieldIssues(
  values: InvoiceFormValues,
  context: InvoiceFormContext,
): Map<string, string> {
  const issues = termsIssues(values);
  if (values.rotRut.type === 'none' || !isRotRutAvailable(context.issuerCountry, values.currency))
    return issues;
  for (const { path, code } of invoiceRotRutIssues(values)) issues.set(path, code);
  // The deduction may exceed a total cut down by discount rows: the buyer must still pay something.
  const live = liveTotals(values, context);
  if (live && live.totals.grossMinor > 0 && live.totals.toPayMinor <= 0 && !issues.has('rows'))
    issues.set('rows', 'validation.invoice_total_positive');
  return issues;
}

/**
 * The form's resolver: the contract schema over the typed values plus the cross-field rules, all
 * reported at once with the first code per field. On success the values are the request body.
 */
export function invoiceFormResolver(
  context: InvoiceFormContext,
): Resolver<InvoiceFormValues, unknown, InvoiceBody> {
  return formResolver<InvoiceFormValues, InvoiceBody>(invoiceFormSchema(context), (values) =>
    crossFieldIssues(values, context),
  );
}

/**
 * A react-hook-form resolver over a schema that reads the typed values into the request body, plus
 * rules across fields (form path → code); every problem is reported at once, the first code per field.
 */
export function formResolver<V extends FieldValues, B>(
  schema: { safeParse: (values: unknown) => z.ZodSafeParseResult<B> },
  crossField: (values: V) => Map<string, string>,
): Resolver<V, unknown, B> {
  return (values, _context, options) => {
    const result = schema.safeParse(values);
    const flat: Record<string, FieldError> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const path = issue.path.join('.');
        flat[path] ??= { type: issue.code, message: issue.message };
      }
    }
    for (const [path, code] of crossField(values)) flat[path] ??= { type: 'custom', message: code };
    if (result.success && Object.keys(flat).length === 0) return { values: result.data, errors: {} };
    return { values: {}, errors: toNestErrors<V>(flat, options) };
  };
}

/** The numbers of one row for the totals; null while its quantity, price or VAT rate cannot be read. */
export function rowInput(row: InvoiceFormRow, language: Language): InvoiceRowInput | null {
  const quantity = parseQuantity(row.quantity, language);
  const price = parseMoney(row.price, { locale: language });
  const vat = /^\d+$/.test(row.vatBasisPoints) ? Number(row.vatBasisPoints) : Number.NaN;
  if (!quantity.ok || !price.ok || !Number.isInteger(vat) || vat > 10_000) return null;
  return {
    quantity: quantity.milli,
    unitPriceMinor: price.minor,
    vatBasisPoints: vat,
    kind: row.rotRut ? 'labour' : 'other',
  };
}

export interface LiveTotals {
  totals: InvoiceTotals;
  /** The net of each form row, null for a row that cannot be read yet. */
  rowNetsMinor: (number | null)[];
}

/**
 * The form's live totals: `computeInvoiceTotals` over the rows that can be read, with the ROT/RUT
 * settings the server uses (the payment date is the due date), so the figures are the ones the
 * server will store. Null when the rows cannot be added up (an amount beyond the safe range).
 */
export function liveTotals(values: InvoiceFormValues, context: InvoiceFormContext): LiveTotals | null {
  const inputs = values.rows.map((row) => rowInput(row, context.language));
  const readable = inputs.filter((input): input is InvoiceRowInput => input !== null);
  const { type } = values.rotRut;
  const reduction =
    type !== 'none' &&
    isRotRutAvailable(context.issuerCountry, values.currency) &&
    isValidIsoDate(values.dueDate)
      ? { type, paymentDate: values.dueDate }
      : null;
  let totals: InvoiceTotals;
  try {
    totals = computeInvoiceTotals(readable, reduction);
  } catch {
    try {
      // No ROT/RUT percentage for that date (before 2024): show the totals without a deduction.
      totals = computeInvoiceTotals(readable, null);
    } catch {
      return null;
    }
  }
  let next = 0;
  const rowNetsMinor = inputs.map((input) => {
    if (input === null) return null;
    const net = totals.rowNetsMinor[next];
    next += 1;
    return net ?? null;
  });
  return { totals, rowNetsMinor };
}

/** Where a server issue's path (a body field such as `rows.0.vatBasisPoints`) shows in the form. */
export function formPathOf(path: string): string | null {
  if (path === 'recipientID') return 'recipient';
  if (path === 'rows') return 'rows';
  const row = /^rows\.(\d+)\.(\w+)$/.exec(path);
  if (row) {
    const field = ROW_FIELDS[row[2] ?? ''];
    return field ? `rows.${row[1]}.${field}` : null;
  }
  return TOP_FIELDS.includes(path) ? path : null;
}

const ROW_FIELDS: Record<string, keyof InvoiceFormRow> = {
  articleNumber: 'articleNumber',
  name: 'name',
  description: 'description',
  quantityMilli: 'quantity',
  unit: 'unit',
  unitPriceMinor: 'price',
  vatBasisPoints: 'vatBasisPoints',
  rotRut: 'rotRut',
};

/** The terms' fields a server issue names as the forms do (`InvoiceTermsValues` but the recipient and the payment terms). */
export const TERMS_FIELDS: readonly string[] = [
  'invoiceNumber',
  'service',
  'currency',
  'invoiceDate',
  'dueDate',
  'orderReference',
  'issuerContact',
  'recipientContact',
];

const TOP_FIELDS: readonly string[] = [
  ...TERMS_FIELDS,
  'rotRut.type',
  'rotRut.personalNumber',
  'rotRut.propertyDesignation',
  'rotRut.housingCoopNumber',
];

/**
 * The placeholders of `errors:invoices.duplicate_number` from the error's details: the existing
 * invoice's amount with its currency, its recipient and its date, in the user's language. Null when
 * the details are missing.
 */
export function duplicateNumberParams(
  details: Record<string, string | number>,
  language: Language,
): { amount: string; recipient: string; date: string } | null {
  const parsed = duplicateInvoiceDetailsSchema.safeParse(details);
  if (!parsed.success) return null;
  return {
    amount: formatMoney(parsed.data.grossMinor, parsed.data.currency, language),
    recipient: parsed.data.recipientName,
    date: formatDate(parsed.data.invoiceDate, language),
  };
}
