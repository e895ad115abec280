import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { decimalToScaled, type FortnoxApi, FortnoxError } from './fortnox.client';
import {
  claimPayment,
  donePaymentsOf,
  type OutboxRow,
  paymentDone,
  paymentFailed,
  pendingPayments,
  queuePaymentsOf,
} from './fortnox.repository';
import { apiOf, ConnectionRefused, type Log } from './fortnox-connection';

/**
 * Payments we received (modules/money/payment-import.ts: an imported file's, or one an operator assigned):
 * those applied to an invoice taken over from Fortnox, of an issuer where a user has
 * limited_fortnox_bookkeeping, are queued to be registered in Fortnox, once each (the outbox's unique
 * key on the payment). Runs in the import's transaction, so a payment rolled back is never queued.
 */
export async function queueFortnoxPayments(
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  at: Date,
): Promise<number> {
  return queuePaymentsOf(tx, of, at);
}

/** Öre as the decimal Fortnox takes (`125050` → `"1250.50"`), from the digits, never a float. */
export function minorToDecimal(minor: number): string {
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** How long a try holds its payment: well beyond a call's time-out, so a late answer lands first. */
export const PAYMENT_CLAIM_MS = 2 * 60_000;

/**
 * Registers the queued payments in Fortnox (`POST /3/invoicepayments`, domain note §9), exactly once
 * each: a try claims its row for PAYMENT_CLAIM_MS and is counted before it is made; a payment tried
 * before (it may have reached Fortnox and timed out on the way back) is first looked for among
 * Fortnox's payments of the invoice (same amount and date, not one already matched to ours). A
 * connection that is not active leaves its payments queued for after a reconnect. Called by the daily
 * job and right after a payment import.
 */
export async function registerFortnoxPayments(
  ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'fortnox'>,
  log: Log,
): Promise<{ registered: number; pending: number }> {
  const queued = await pendingPayments(ctx.db);
  let registered = 0;
  const byIssuer = new Map<string, OutboxRow[]>();
  for (const row of queued) byIssuer.set(row.issuerId, [...(byIssuer.get(row.issuerId) ?? []), row]);
  for (const [issuerId, rows] of byIssuer) {
    let api: FortnoxApi;
    try {
      api = await apiOf(ctx as AppContext, issuerId);
    } catch {
      continue;
    }
    for (const queuedRow of rows) {
      const now = ctx.now();
      const row = await claimPayment(ctx.db, queuedRow.id, now, new Date(now.getTime() + PAYMENT_CLAIM_MS));
      if (!row) continue;
      const amount = minorToDecimal(row.amountMinor);
      try {
        if (row.attempts > 1) {
          const ours = new Set(
            (await donePaymentsOf(ctx.db, issuerId, row.documentNumber)).map((d) => d.fortnoxPaymentNumber),
          );
          const there = (await api.listInvoicePayments(row.documentNumber)).find(
            (p) =>
              !ours.has(String(p.Number)) &&
              decimalToScaled(p.Amount, 2) === row.amountMinor &&
              p.PaymentDate === row.paymentDate,
          );
          if (there) {
            await paymentDone(ctx.db, row.id, String(there.Number), ctx.now());
            registered++;
            continue;
          }
        }
        const payment = await api.createInvoicePayment({
          invoiceNumber: row.documentNumber,
          amount,
          paymentDate: row.paymentDate,
        });
        await paymentDone(ctx.db, row.id, String(payment.Number), ctx.now());
        registered++;
      } catch (err) {
        const unanswered =
          err instanceof FortnoxError && (err.failure === 'timeout' || err.failure === 'network');
        const text =
          err instanceof FortnoxError
            ? err.failure
            : err instanceof ConnectionRefused
              ? 'refused'
              : String(err);
        await paymentFailed(ctx.db, row.id, text, !unanswered);
        log.warn({ outbox: row.id, failure: text }, 'fortnox: registering a payment failed');
        if (err instanceof ConnectionRefused) break;
      }
    }
  }
  return { registered, pending: queued.length - registered };
}
