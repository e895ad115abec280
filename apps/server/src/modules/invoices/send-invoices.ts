import { INVOICE_STATE, SEND_MIN_DAYS_TO_DUE, type ServiceType, sendDueDateCode } from '@portal/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { invoiceEvents, invoices } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { todayIn } from '../../lib/today';
import type { FileStore } from '../../services/file-store';
import { freezeInvoiceDocuments } from './invoice-documents.service';
import { invoiceTotalCode, nextOcrReference } from './invoice-math';
import { stateAfterSend } from './invoice-state';

export interface SendResult {
  invoiceID: string;
  invoiceNumber: string;
  ok: boolean;
  state: number | null;
  ocr: string | null;
  code: 'invoices.not_found' | 'invoices.invalid_transition' | 'invoices.invalid_total' | null;
}

/**
 * Sends pending invoices of the issuer to us (docs/INVOICES.md): each gets its OCR reference (an own
 * one registered with the invoice is kept) and moves on to the credit decision (financed services) or
 * the queue. An invoice of another issuer answers not found; any state but pending is refused, and so
 * is a total out of range (docs/MONEY.md "Money bounds"). Runs in the caller's transaction; the send
 * route and the demo seed both use it.
 *
 * The due-date rule (`sendDueDateCode`) refuses the whole request instead (docs/INVOICES.md "Due dates
 * when sending"): when one pending financed invoice of the request is past due or due too soon, this
 * throws `invoices.due_date_passed` (any past due) or `invoices.due_date_too_soon` before anything is
 * written, so the caller's transaction sends none of them. Its issues name each refused invoice by its
 * index in `ids` (`invoiceIDs.<i>`) with its own code; `details.numbers` lists the invoice numbers of
 * the answer's code and `details.days` the minimum days.
 *
 * Each invoice sent gets its document drawn and stored in the same transaction (frozen, issue #11):
 * what every later download returns. `files` holds the customers' own PDFs of uploaded invoices.
 */
export async function sendInvoices(
  tx: Tx,
  who: { issuerId: string; userId: string | null },
  ids: string[],
  now: Date,
  files: FileStore,
): Promise<SendResult[]> {
  const found = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.issuerId, who.issuerId), inArray(invoices.id, ids)))
    .orderBy(asc(invoices.invoiceNumber))
    .for('update');
  const byId = new Map(found.map((i) => [i.id, i]));
  refuseDueDates(ids, byId, todayIn(now));
  const results: SendResult[] = [];
  for (const id of ids) {
    const inv = byId.get(id);
    if (!inv) {
      results.push({
        invoiceID: id,
        invoiceNumber: '',
        ok: false,
        state: null,
        ocr: null,
        code: 'invoices.not_found',
      });
      continue;
    }
    // An invoice stored before the bounds (or written around them) never goes into financing or the
    // book with a total out of range: it stays pending for the customer to correct.
    const refused =
      inv.state !== INVOICE_STATE.pending
        ? 'invoices.invalid_transition'
        : invoiceTotalCode(inv) !== null
          ? 'invoices.invalid_total'
          : null;
    if (refused) {
      results.push({
        invoiceID: id,
        invoiceNumber: inv.invoiceNumber,
        ok: false,
        state: inv.state,
        ocr: inv.ocr,
        code: refused,
      });
      continue;
    }
    const ocr = inv.ocr ?? (await nextOcrReference(tx, who.issuerId));
    const next = stateAfterSend(inv.service as ServiceType);
    await tx
      .update(invoices)
      .set({ state: next.state, decision: null, ocr, sentAt: now, updatedAt: now })
      .where(eq(invoices.id, id));
    await tx.insert(invoiceEvents).values(
      next.events.map((event) => ({
        invoiceId: id,
        issuerId: who.issuerId,
        event,
        userId: who.userId,
        at: now,
        details: { ocr },
      })),
    );
    results.push({
      invoiceID: id,
      invoiceNumber: inv.invoiceNumber,
      ok: true,
      state: next.state,
      ocr,
      code: null,
    });
  }
  await freezeInvoiceDocuments(
    tx,
    files,
    who.issuerId,
    results.filter((r) => r.ok).map((r) => r.invoiceID),
    todayIn(now),
  );
  return results;
}

/** Throws the due-date refusal of a request when one of its pending invoices breaks the rule. */
function refuseDueDates(
  ids: string[],
  byId: Map<string, { state: number; service: string; dueDate: string; invoiceNumber: string }>,
  today: string,
): void {
  const refused = ids.flatMap((id, index) => {
    const inv = byId.get(id);
    if (inv?.state !== INVOICE_STATE.pending) return [];
    const code = sendDueDateCode(inv.service as ServiceType, inv.dueDate, today);
    return code ? [{ index, code, invoiceNumber: inv.invoiceNumber }] : [];
  });
  if (refused.length === 0) return;
  const code = refused.some((r) => r.code === 'invoices.due_date_passed')
    ? 'invoices.due_date_passed'
    : 'invoices.due_date_too_soon';
  throw new ApiError(code, {
    issues: refused.map((r) => ({ path: `invoiceIDs.${r.index}`, code: r.code })),
    details: {
      numbers: refused
        .filter((r) => r.code === code)
        .map((r) => r.invoiceNumber)
        .join(', '),
      days: SEND_MIN_DAYS_TO_DUE,
    },
  });
}
