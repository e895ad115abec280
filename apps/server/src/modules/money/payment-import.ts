// Over 500 lines on purpose: one all-or-nothing transaction of the BGMAX import (read in batches, lock
// and read the targets, write), kept together so its locking order can be checked in one file; the
// matching itself is apart in payment-matching.ts.
import { createHash, randomUUID } from 'node:crypto';
import {
  BgmaxError,
  type BgmaxFile,
  type BgmaxPayment,
  type BgmaxScanResult,
  type BgmaxSectionFacts,
  type BgmaxSectionHead,
  bgmaxExtraReferenceSignedAmount,
  bgmaxPayments,
  bgmaxSignedAmount,
  readBgmax,
} from '@portal/domain/bgmax';
import { eq, sql } from 'drizzle-orm';
import { BULK_CHUNK, bulkInsertRows, executePrepared } from '../../db/bulk';
import type { Db, Tx } from '../../db/client';
import { inList } from '../../db/in-list';
import { lockById } from '../../db/locks';
import { rows } from '../../db/migrate';
import { invoices, paymentFiles, payments } from '../../db/schema';
import { auditOperator } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { minorOf } from '../../lib/minor';
import { claimReferences, lockClaims, readClaims, updateClaims } from './claim-payments';
import { insertPostingRows } from './ledger';
import {
  acceptsPayment,
  applyPayment,
  dedupeKeysOf,
  emptyBatch,
  type Incoming,
  type MatchBatch,
  type MatchCounts,
  matchPayments,
  type PaymentTarget,
  referencesOf,
  splitParts,
} from './payment-matching';

/** Any constant: imports take this transaction-level advisory lock, one file at a time. */
const IMPORT_LOCK_ID = 727_003;

export interface ImportOptions {
  filename: string;
  operatorId: string | null;
  now: Date;
  /** Written in the import's transaction once it is done (the audit row), so both commit or neither. */
  record?: (tx: Tx, result: ImportResult) => Promise<void>;
  /** Payments per written batch (IMPORT_BATCH unless a test wants many batches of a small file). */
  batchSize?: number;
  /** What the caller does with the applied payments in the same transaction (issue #13: Fortnox queues them). */
  afterApplied?: PaymentsApplied;
}

/**
 * A step run in the import's (or the assignment's) transaction once its payments are applied, so a
 * payment rolled back is never passed on. The app wires Fortnox's queue and the completion of the
 * installment plans the payments paid up in here (modules/backoffice-money), which keeps the money
 * module free of any one ERP and of the installments module (which books through money).
 */
export type PaymentsApplied = (
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  at: Date,
) => Promise<unknown>;

export interface ImportResult {
  fileId: string;
  duplicateFile: boolean;
  /** Payments and deductions in the file. */
  payments: number;
  /** Payment rows registered now: one per part of a split payment; none for a payment known before. */
  registered: number;
  matched: number;
  /** Payments kept for an operator to assign (deductions are not among them). */
  unmatched: number;
  /** Deductions registered now (TK21, a split payment's TK23 part): never assigned to an invoice. */
  deductions: number;
  /** Zero amounts registered now (a TK20 or a part of nothing): kept as information, never booked. */
  information: number;
  overpayments: number;
  /** Signed sum of the file's payments, minor units. */
  totalMinor: number;
}

/** Runs a read of the file, or refuses it whole: 422 `bgmax.invalid` naming the line and the rule. */
function orRefuse<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof BgmaxError)
      throw new ApiError('bgmax.invalid', { details: { line: error.line, rule: error.rule } });
    throw error;
  }
}

/** Reads the file or refuses it whole: 422 `bgmax.invalid` naming the line and the rule. */
export function parseBgmaxOrRefuse(bytes: Uint8Array): BgmaxFile {
  return orRefuse(() => readBgmax(bytes).file);
}

/** One TK20/TK21 with its section's facts, as the import works with it. */
function flatten(
  p: BgmaxPayment,
  section: BgmaxSectionHead,
  deposit: BgmaxSectionFacts['deposit'],
): Incoming {
  const kind = p.kind === 'deduction' ? 'TK21' : 'TK20';
  return {
    // Bankgirot's serial number identifies a payment within a deposit; with the receiving bankgiro,
    // the date and the deposit's serial number it identifies it in any file.
    dedupeKey: [
      section.payeeBankgiro,
      deposit.paymentDate,
      deposit.serialNumber,
      p.bgcSerialNumber,
      kind,
    ].join('|'),
    bankgiro: section.payeeBankgiro,
    currency: section.currency,
    paymentDate: deposit.paymentDate,
    reference: p.reference,
    extraReference: soleExtraReference(p),
    extraReferences: p.extraReferences.map((e) => e.reference).filter((r) => r !== ''),
    parts: splitParts(p),
    amountMinor: bgmaxSignedAmount(p),
    deduction: p.kind === 'deduction',
    payerBankgiro: p.senderBankgiro,
    payerName: p.name?.name ?? '',
    channel: p.channel,
    bgcSerial: p.bgcSerialNumber,
  };
}

/**
 * The one extra reference a payment can be matched on when its own reference matches nothing
 * (shared/domain/bgmax.md §3, §4): under extended form registration the payer's references come as
 * TK22/TK23 records instead of (code 0) or besides (code 3) the TK20's. Only an unambiguous one
 * counts: exactly one extra reference, a TK22, whose amount is the whole payment or zero (not split).
 * Several references, a TK23 credit or a split amount say the money belongs to several invoices: it is
 * registered part by part when the parts add up (`splitParts`), else an operator decides. Never for a
 * deduction.
 */
function soleExtraReference(
  p: Pick<BgmaxPayment, 'kind' | 'amountMinor' | 'extraReferences'>,
): string | null {
  if (p.kind === 'deduction' || p.extraReferences.length !== 1) return null;
  const [only] = p.extraReferences;
  if (only?.sign !== 'positive' || only.reference === '') return null;
  const amount = bgmaxExtraReferenceSignedAmount(only);
  return amount === 0 || amount === p.amountMinor ? only.reference : null;
}

/** A reference that can be an OCR reference of ours (digits only), the only kind looked up. */
const OCR_LIKE = /^[0-9]{2,25}$/;

/**
 * What the first reading of a file gives (every rule checked): its sections without their payments,
 * the payments' count and signed sum, and the receiving bankgiros with the references the payments
 * may be matched on (`bankgiro:reference`).
 */
interface FileScan {
  scan: BgmaxScanResult;
  count: number;
  totalMinor: number;
  bankgiros: Set<string>;
  references: Set<string>;
}

function scanFile(bytes: Uint8Array): FileScan {
  const bankgiros = new Set<string>();
  const references = new Set<string>();
  let count = 0;
  let totalMinor = 0;
  const scan = orRefuse(() => {
    const payments = bgmaxPayments(bytes);
    for (;;) {
      const next = payments.next();
      if (next.done) return next.value;
      const { payment: p, section } = next.value;
      count++;
      totalMinor += bgmaxSignedAmount(p);
      bankgiros.add(section.payeeBankgiro);
      if (p.kind === 'deduction') continue;
      const may = { reference: p.reference, extraReference: soleExtraReference(p), parts: splitParts(p) };
      for (const ref of referencesOf(may))
        if (OCR_LIKE.test(ref)) references.add(`${section.payeeBankgiro}:${ref}`);
    }
  });
  return { scan, count, totalMinor, bankgiros, references };
}

/**
 * Imports a BGMAX file of incoming payments (docs/MONEY.md "Incoming payments"), all or nothing, in
 * one transaction under an advisory lock. The same bytes import once (the answer says
 * `duplicateFile`); a payment known from another file is not registered again. Each payment is
 * matched by its section's receiving bankgiro (the issuer) and its reference (the OCR of an invoice in
 * the section's currency) and applied in file order: paid, part paid, overpaid, passed on after a
 * charge back, or kept unmatched for an operator.
 *
 * The file is read twice and never held as a whole (issue #15: a 16 MB file of 100,000 payments grew
 * the server by 550 MB): the first reading checks every rule and collects the references; every
 * invoice a payment may name is then locked in one statement, in index order. The second reading
 * works in batches of IMPORT_BATCH payments: the batch's payments already known are left out, its
 * invoices are read (as the earlier batches left them), its payments applied in order, and its rows
 * written, three statements, sent while the next batch is read and worked out. The payments'
 * timeline events are read from the payment rows (`invoiceTimeline`), not written apart.
 */
export async function importBgmaxFile(db: Db, bytes: Uint8Array, opts: ImportOptions): Promise<ImportResult> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = scanFile(bytes);
  return db.transaction(async (tx) => {
    const result = await importInTransaction(tx, bytes, sha256, file, opts);
    // The caller's record of the import (the audit row) commits with it or not at all.
    await opts.record?.(tx, result);
    return result;
  });
}

/**
 * Payments per batch: each batch's rows are sent while the next one is worked out. 2,000 rather than
 * 5,000: the 100,000-payment bench file grew the server by 154 MB instead of 247 MB, and took 15 s
 * instead of 20 s on the same loaded machine (1,000: 156 MB, 20 s).
 */
export const IMPORT_BATCH = 2_000;
/** Payments worked out between two turns of the event loop (so sending goes on meanwhile). */
const IMPORT_SLICE = 500;

/**
 * The writes of one transaction sent while the caller works out the next: at most `depth` batches wait
 * on the connection (bounded memory), and the caller gives the event loop a turn after each, so the
 * driver can flush. PostgreSQL writes one batch while Node builds the next. A failed write makes the
 * next `add` or `drain` throw it (later statements of the transaction fail too, and it rolls back).
 */
class WritePipeline {
  private readonly inflight: Promise<void>[] = [];
  constructor(private readonly depth: number) {}

  async add(write: Promise<void>): Promise<void> {
    // Handled where it is awaited; this only keeps a rejection from counting as unhandled meanwhile.
    write.catch(() => {});
    this.inflight.push(write);
    if (this.inflight.length > this.depth) await this.inflight.shift();
    else await new Promise((resolve) => setImmediate(resolve));
  }

  async drain(): Promise<void> {
    for (const write of this.inflight.splice(0)) await write;
  }
}

/**
 * A batch's statements, issued together so that the connection has them all queued at once: its two
 * inserts and the update of its invoices, as they stand after the batch (taken now: later batches go
 * on changing the same targets in memory, and write them again after this one).
 */
async function writeBatch(tx: Tx, batch: MatchBatch, at: Date): Promise<void> {
  const invoiceRows = [...batch.touched].map((t) => ({
    id: t.id,
    state: t.state,
    remaining: t.remainingMinor,
  }));
  await Promise.all([
    bulkInsertRows(tx, payments, PAYMENT_COLUMNS, batch.payments),
    insertPostingRows(tx, batch.postings),
    updateInvoices(tx, invoiceRows, at),
    updateClaims(tx, [...batch.claims]),
  ]);
}

async function importInTransaction(
  tx: Tx,
  bytes: Uint8Array,
  sha256: string,
  file: FileScan,
  opts: ImportOptions,
): Promise<ImportResult> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_ID})`);
  // Room for one batch's transition tables (the kept totals' statement triggers) in memory: with the
  // default 4 MB they went to temporary files. For this transaction only.
  await tx.execute(sql`set local work_mem = '32MB'`);
  const [known] = await tx.select().from(paymentFiles).where(eq(paymentFiles.sha256, sha256)).limit(1);
  if (known)
    return {
      fileId: known.id,
      duplicateFile: true,
      payments: known.paymentCount,
      registered: 0,
      matched: 0,
      unmatched: 0,
      deductions: 0,
      information: 0,
      overpayments: 0,
      totalMinor: file.totalMinor,
    };

  const issuerOf = await issuersByBankgiro(tx, file.bankgiros);
  await lockTargets(tx, file.references, issuerOf);
  await lockClaims(tx, claimReferences(file.references, issuerOf));
  // Needed no more: not kept through the batches (a string each, ~10 MB for 100,000 payments).
  file.references.clear();

  const fileId = randomUUID();
  const at = opts.now;
  const { header, sections } = file.scan;
  // The file first (its payments refer to it); its counts are known once every payment is applied.
  await tx.insert(paymentFiles).values({
    id: fileId,
    sha256,
    filename: opts.filename.slice(0, 200),
    writtenAt: header.writtenAt,
    testMark: header.testMark,
    paymentCount: file.count,
    registeredCount: 0,
    matchedCount: 0,
    unmatchedCount: 0,
    operatorId: opts.operatorId,
    importedAt: at,
  });
  const counts: MatchCounts = { matched: 0, unmatched: 0, deductions: 0, information: 0, overpayments: 0 };
  const pipeline = new WritePipeline(2);
  const batchSize = opts.batchSize ?? IMPORT_BATCH;

  const runBatch = async (incoming: Incoming[]) => {
    const existing = new Set(
      rows<{ dedupe_key: string }>(
        await tx.execute(
          sql`select dedupe_key from payments where dedupe_key in ${inList(incoming.flatMap(dedupeKeysOf))}`,
        ),
      ).map((e) => e.dedupe_key),
    );
    // Known when it was registered whole or part by part (docs/MONEY.md "Split payments"), by an
    // earlier import or an earlier batch of this one: the statement comes after that batch's insert on
    // the same connection. A payment twice in one batch is registered once.
    const seen = new Set<string>();
    const fresh = incoming.filter((p) => {
      if (seen.has(p.dedupeKey) || dedupeKeysOf(p).some((key) => existing.has(key))) return false;
      seen.add(p.dedupeKey);
      return true;
    });
    // Read after the earlier batches' writes (the same connection, in order): as they left them.
    const targets = await readTargets(tx, fresh, issuerOf);
    const claims = await readClaims(tx, fresh, issuerOf);
    const ctx = { fileId, at, issuerOf, targets, claims, counts };
    const slice = Math.min(IMPORT_SLICE, batchSize);
    const batch = emptyBatch();
    for (let from = 0; from < fresh.length; from += slice) {
      matchPayments(fresh, from, Math.min(from + slice, fresh.length), ctx, batch);
      // A turn of the event loop between slices lets the driver flush what it is sending meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (batch.payments.length > 0) await pipeline.add(writeBatch(tx, batch, at));
  };

  let incoming: Incoming[] = [];
  const payments = bgmaxPayments(bytes);
  for (;;) {
    // The same bytes as the first reading: no rule can fail now.
    const next = payments.next();
    if (next.done) break;
    const { payment, sectionIndex, section } = next.value;
    const facts = sections[sectionIndex];
    if (!facts) throw new Error(`section ${sectionIndex} missing from the first reading`);
    incoming.push(flatten(payment, section, facts.deposit));
    if (incoming.length >= batchSize) {
      await runBatch(incoming);
      incoming = [];
    }
  }
  if (incoming.length > 0) await runBatch(incoming);
  await pipeline.drain();
  // Issue #13: e.g. payments of invoices taken over from Fortnox go back to the issuer's Fortnox books.
  await opts.afterApplied?.(tx, { fileId }, at);
  const { matched, unmatched, deductions, information, overpayments } = counts;
  const registered = matched + unmatched + deductions + information;
  await tx
    .update(paymentFiles)
    .set({ registeredCount: registered, matchedCount: matched, unmatchedCount: unmatched })
    .where(eq(paymentFiles.id, fileId));
  return {
    fileId,
    duplicateFile: false,
    payments: file.count,
    registered,
    matched,
    unmatched,
    deductions,
    information,
    overpayments,
    totalMinor: file.totalMinor,
  };
}

/** The issuers of the sections' receiving bankgiros (a payment to any other bankgiro has none). */
async function issuersByBankgiro(tx: Tx, bankgiros: Set<string>): Promise<Map<string, string>> {
  const wanted = [...bankgiros].filter((b) => /^[0-9]+$/.test(b));
  if (wanted.length === 0) return new Map();
  return new Map(
    rows<{ id: string; collection_bankgiro: string }>(
      await tx.execute(
        sql`select id, collection_bankgiro from issuers where collection_bankgiro in ${inList(wanted)}`,
      ),
    ).map((r) => [r.collection_bankgiro, r.id]),
  );
}

/** `issuer:ocr` keys, sorted, as the two lists of a LATERAL probe of the (issuer, ocr) index. */
function keyLists(keys: Iterable<string>): { issuerIds: string; ocrs: string } {
  const sorted = [...keys].sort();
  return {
    issuerIds: sorted.map((k) => k.slice(0, k.indexOf(':'))).join(','),
    ocrs: sorted.map((k) => k.slice(k.indexOf(':') + 1)).join(','),
  };
}

/**
 * Locks every invoice the file's payments may name (its own reference, its sole TK22's, its parts') in one
 * statement, in the (issuer, ocr) index's order, returning no rows: the batches read them later.
 * A LATERAL subquery with a locking clause is never flattened into a join, so each key is one probe
 * of the index. As a join, the planner hashed the whole invoices table for 95,000 keys and sorted the
 * result on disk: 540 ms against 310 ms (EXPLAIN on the bench data).
 */
async function lockTargets(tx: Tx, references: Set<string>, issuerOf: Map<string, string>): Promise<void> {
  const keys = new Set<string>();
  for (const ref of references) {
    const colon = ref.indexOf(':');
    const issuerId = issuerOf.get(ref.slice(0, colon));
    if (issuerId) keys.add(`${issuerId}:${ref.slice(colon + 1)}`);
  }
  if (keys.size === 0) return;
  const { issuerIds, ocrs } = keyLists(keys);
  await tx.execute(sql`
    select count(*) from (
      select unnest(string_to_array(${issuerIds}, ','))::uuid as issuer_id,
             unnest(string_to_array(${ocrs}, ',')) as ocr
    ) k
    cross join lateral (
      select 1 from invoices i where i.issuer_id = k.issuer_id and i.ocr = k.ocr for update of i
    ) l`);
}

/** The invoices a batch's payments may be matched on (locked before), keyed `issuer:ocr`. */
async function readTargets(
  tx: Tx,
  fresh: Incoming[],
  issuerOf: Map<string, string>,
): Promise<Map<string, PaymentTarget>> {
  const wanted = new Set<string>();
  for (const p of fresh) {
    const issuerId = issuerOf.get(p.bankgiro);
    if (p.deduction || !issuerId) continue;
    for (const ref of referencesOf(p)) if (OCR_LIKE.test(ref)) wanted.add(`${issuerId}:${ref}`);
  }
  const targets = new Map<string, PaymentTarget>();
  if (wanted.size === 0) return targets;
  const { issuerIds, ocrs } = keyLists(wanted);
  const found = rows<{
    id: string;
    issuer_id: string;
    invoice_number: string;
    ocr: string;
    state: number;
    currency: string;
    service: string;
    remaining_minor: string;
  }>(
    await tx.execute(sql`
        select l.id, l.issuer_id, l.invoice_number, l.ocr, l.state, l.currency, l.service,
               l.remaining_minor::text
        from (
          select unnest(string_to_array(${issuerIds}, ','))::uuid as issuer_id,
                 unnest(string_to_array(${ocrs}, ',')) as ocr
        ) k
        cross join lateral (
          select i.id, i.issuer_id, i.invoice_number, i.ocr, i.state, i.currency, i.service, i.remaining_minor
          from invoices i
          where i.issuer_id = k.issuer_id and i.ocr = k.ocr
        ) l`),
  );
  for (const f of found)
    targets.set(`${f.issuer_id}:${f.ocr}`, {
      id: f.id,
      issuerId: f.issuer_id,
      invoiceNumber: f.invoice_number,
      ocr: f.ocr,
      state: f.state,
      currency: f.currency,
      service: f.service,
      remainingMinor: minorOf(f.remaining_minor),
      touched: false,
    });
  return targets;
}

/**
 * Writes the state and remaining amount of invoices, in one statement per chunk. The rows come as
 * JSON, not as arrays: the planner takes `jsonb_to_recordset` for 100 rows and probes the primary key
 * per row, while it sizes an `unnest` of a 10,000-element array right and then prefers hashing the
 * whole invoices table (a million rows) for every chunk.
 */
async function updateInvoices(
  tx: Tx,
  invoiceRows: { id: string; state: number; remaining: number }[],
  at: Date,
): Promise<void> {
  for (let i = 0; i < invoiceRows.length; i += BULK_CHUNK) {
    const chunk = invoiceRows.slice(i, i + BULK_CHUNK);
    await executePrepared(
      tx,
      sql`
      update invoices set state = v.state, remaining_minor = v.remaining, updated_at = ${at.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as v(id uuid, state int, remaining bigint)
      where invoices.id = v.id`,
    );
  }
}

/** The columns of a payment that an import writes, with their SQL types. */
const PAYMENT_COLUMNS = {
  id: 'uuid',
  fileId: 'uuid',
  dedupeKey: 'text',
  receivingBankgiro: 'text',
  issuerId: 'uuid',
  invoiceId: 'uuid',
  status: 'text',
  reference: 'text',
  amountMinor: 'bigint',
  currency: 'text',
  paymentDate: 'date',
  payerBankgiro: 'text',
  payerName: 'text',
  channel: 'int',
  bgcSerial: 'text',
  part: 'int',
  appliedMinor: 'bigint',
  overpaidMinor: 'bigint',
  remainingAfterMinor: 'bigint',
  forwarded: 'boolean',
  claimId: 'uuid',
  createdAt: 'timestamptz',
} as const;

export type { PaymentTarget } from './payment-matching';
export { acceptsPayment } from './payment-matching';

export interface AssignResult {
  paymentId: string;
  invoiceId: string;
  appliedMinor: number;
  overpaidMinor: number;
  state: number;
  remainingMinor: number;
}

/**
 * An operator assigns an unmatched payment to an invoice: then it counts as a payment on that
 * invoice (paid, part paid, overpaid or passed on), taken from the unmatched payments. The payment and
 * the invoice are locked; a payment already matched or assigned answers 409
 * `payments.already_assigned`, a TK21 deduction (money off a deposit, no payment) 409
 * `payments.deduction`, a zero amount kept as information 409 `payments.information`, an invoice that cannot take it (state, currency) 409
 * `invoices.invalid_transition`. One transaction with its audit row.
 */
export async function assignPayment(
  db: Db,
  paymentId: string,
  invoiceId: string,
  operator: { operatorId: string; username: string },
  now: Date,
  ip: string,
  afterApplied?: PaymentsApplied,
): Promise<AssignResult> {
  return db.transaction(async (tx) => {
    const payment = await lockById(tx, payments, paymentId);
    if (!payment) throw new ApiError('payments.not_found');
    if (payment.status === 'deduction') throw new ApiError('payments.deduction');
    if (payment.status === 'information') throw new ApiError('payments.information');
    if (payment.status !== 'unmatched') throw new ApiError('payments.already_assigned');
    const invoice = await lockById(tx, invoices, invoiceId);
    if (!invoice) throw new ApiError('invoices.not_found');
    if (!acceptsPayment(invoice.state) || invoice.currency !== payment.currency || payment.amountMinor <= 0)
      throw new ApiError('invoices.invalid_transition');
    const target: PaymentTarget = {
      id: invoice.id,
      issuerId: invoice.issuerId,
      invoiceNumber: invoice.invoiceNumber,
      ocr: invoice.ocr ?? '',
      state: invoice.state,
      currency: invoice.currency,
      service: invoice.service,
      remainingMinor: invoice.remainingMinor,
      touched: false,
    };
    const applied = applyPayment(
      target,
      payment.amountMinor,
      payment.id,
      now,
      'unmatched_payments',
      'assign',
    );
    await insertPostingRows(tx, applied.postings);
    await tx
      .update(invoices)
      .set({ state: target.state, remainingMinor: target.remainingMinor, updatedAt: now })
      .where(eq(invoices.id, invoice.id));
    await tx
      .update(payments)
      .set({
        status: 'assigned',
        issuerId: invoice.issuerId,
        invoiceId: invoice.id,
        appliedMinor: applied.appliedMinor,
        overpaidMinor: applied.overpaidMinor,
        remainingAfterMinor: applied.remainingAfterMinor,
        forwarded: applied.forwarded,
        // Its events are written now: they take their place in the timeline's order of writing.
        seq: sql`nextval('invoice_events_seq_seq')`,
        assignedBy: operator.operatorId,
        assignedAt: now,
      })
      .where(eq(payments.id, payment.id));
    await afterApplied?.(tx, { paymentId: payment.id }, now);
    await auditOperator(tx, 'backoffice.payment.assigned', operator, ip, {
      issuerId: invoice.issuerId,
      details: { paymentId: payment.id, invoiceId: invoice.id, amountMinor: payment.amountMinor },
    });
    return {
      paymentId: payment.id,
      invoiceId: invoice.id,
      appliedMinor: applied.appliedMinor,
      overpaidMinor: applied.overpaidMinor,
      state: target.state,
      remainingMinor: target.remainingMinor,
    };
  });
}
