import { createHash } from 'node:crypto';
import type { importFileQuerySchema, importTemplateQuerySchema } from '@portal/contracts';
import { DEFAULT_PAYMENT_TERMS_DAYS, dueDate } from '@portal/domain/due-date';
import type { Currency } from '@portal/domain/money';
import { translate } from '@portal/i18n';
import type { z } from 'zod';
import type { AuthContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { CSV_CONTENT_TYPE } from '../../lib/csv';
import { ApiError } from '../../lib/errors';
import { todayIn } from '../../lib/today';
import { idempotencyKeyOf, once } from '../../services/idempotency';
import { CURRENCIES, languageOf, TAX_RATES } from '../../services/users';
import { suggestNextInvoiceNumber, writeInvoice } from '../invoices/invoices.service';
import {
  checkImport,
  type ImportContext,
  importTemplate,
  type ParsedImport,
  type TemplateExample,
} from './import-check';
import { ImportPool } from './import-pool';
import * as repo from './invoice-import.repository';

/**
 * Invoices imported from a CSV or Excel file (spec §2): the file is read in a worker of an ImportPool
 * (import-pool.ts), checked against the issuer's recipients, currencies, VAT rates and invoice numbers
 * (import-check.ts), and its valid invoices registered in one transaction.
 */

export type { ImportPool };

/** The pool of workers that read import files; `warn` gets what the pool has to say. */
export function newImportPool(warn: (message: string) => void): ImportPool {
  return new ImportPool(undefined, warn);
}

async function importContext(db: Db | Tx, issuerId: string): Promise<ImportContext> {
  const country = await repo.issuerCountry(db, issuerId);
  if (!country) throw new ApiError('server.internal');
  const own = await repo.recipientsOf(db, issuerId);
  const numbers = await repo.invoiceNumbersOf(db, issuerId);
  return {
    country,
    currencies: CURRENCIES[country],
    vatRates: TAX_RATES[country].map((r) => r.rateBasisPoints),
    recipientByNumber: new Map(
      own.filter((r) => r.org).map((r) => [r.org.replace(/[\s-]/g, ''), { id: r.id, name: r.name }]),
    ),
    recipientByName: new Map(own.map((r) => [r.name.toLowerCase(), { id: r.id, name: r.name }])),
    existingNumbers: new Set(numbers),
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
  const recipient = await repo.firstRecipient(db, issuerId);
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

/** The file's table, read in a worker of `pool` with every limit held while reading (import-table.ts). */
async function readTable(pool: ImportPool, bytes: unknown, format: 'csv' | 'xlsx'): Promise<string[][]> {
  if (!Buffer.isBuffer(bytes)) throw new ApiError('files.required');
  if (bytes.length === 0) throw new ApiError('import.empty');
  const table = await pool.read(format, bytes);
  // A file of blank lines (or an empty sheet) has not even the header: nothing to check.
  if (table.length === 0) throw new ApiError('import.empty');
  return table;
}

async function check(
  db: Db | Tx,
  pool: ImportPool,
  bytes: unknown,
  issuerId: string,
  format: 'csv' | 'xlsx',
): Promise<ParsedImport> {
  return checkImport(await readTable(pool, bytes, format), await importContext(db, issuerId));
}

/** `previewInvoiceImport`: what the file would register; saves nothing. */
export async function previewInvoiceImport(
  db: Db,
  pool: ImportPool,
  issuerId: string,
  bytes: unknown,
  query: z.output<typeof importFileQuerySchema>,
) {
  return (await check(db, pool, bytes, issuerId, query.format)).preview;
}

/**
 * `importInvoices`: every valid invoice of the file in one transaction, each with its `registered`
 * event; the Idempotency-Key's stored answer comes back before the file is read again, so a retry
 * imports nothing twice.
 */
export async function importInvoices(
  db: Db,
  pool: ImportPool,
  auth: AuthContext,
  bytes: unknown,
  query: z.output<typeof importFileQuerySchema>,
  headers: Record<string, unknown>,
  now: Date,
) {
  const key = idempotencyKeyOf(headers);
  const fingerprint = {
    format: query.format,
    sha256: createHash('sha256')
      .update(Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0))
      .digest('hex'),
  };
  return once(db, auth.issuerId, key, 'importInvoices', fingerprint, async (tx) => {
    const parsed = await check(tx, pool, bytes, auth.issuerId, query.format);
    if (parsed.valid.length === 0) throw new ApiError('import.nothing_valid');
    const created: { invoiceID: string; invoiceNumber: string }[] = [];
    for (const invoice of parsed.valid) {
      const id = await writeInvoice(tx, auth.issuerId, invoice, { existingId: null, now, source: 'import' });
      created.push({ invoiceID: id, invoiceNumber: invoice.invoiceNumber });
    }
    const ids = created.map((c) => c.invoiceID);
    await repo.insertRegisteredEvents(tx, auth.issuerId, auth.userId, ids, now);
    // Re-read inside the transaction: every invoice is there, or none is.
    if ((await repo.countStored(tx, auth.issuerId, ids)) !== created.length)
      throw new ApiError('server.internal');
    return { created, skipped: parsed.preview.invoices.length - created.length };
  });
}

/**
 * `getImportTemplate`: the template file with the columns and an example invoice, in the language the
 * page asks for, else the user's stored one (as the reports).
 */
export async function getImportTemplate(
  db: Db,
  auth: AuthContext,
  query: z.output<typeof importTemplateQuerySchema>,
  now: Date,
) {
  const language = query.language ?? (await languageOf(db, auth.userId));
  const { format } = query;
  const file = await importTemplate(format, language, await templateExample(db, auth.issuerId, now));
  const name = translate(language, 'documents', 'invoiceImport.filename');
  return {
    fileName: `${name}.${format}`,
    contentType:
      format === 'csv'
        ? CSV_CONTENT_TYPE
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    file,
  };
}
