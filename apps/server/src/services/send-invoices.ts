import type { ServiceType } from '@portal/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { invoiceEvents, invoices } from '../db/schema';
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
 */
export async function sendInvoices(
  tx: Tx,
  who: { issuerId: string; userId: string | null },
  ids: string[],
  now: Date,
): Promise<SendResult[]> {
  const found = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.issuerId, who.issuerId), inArray(invoices.id, ids)))
    .orderBy(asc(invoices.invoiceNumber))
    .for('update');
  const byId = new Map(found.map((i) => [i.id, i]));
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
      inv.state !== 1
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
  return results;
}
