import { OUR_BANKGIRO } from '@portal/domain/money-flow';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { inList } from '../../db/in-list';
import { rows } from '../../db/migrate';
import { minorOf } from '../../lib/minor';
import type { ClaimTarget, Incoming } from './payment-matching';

/**
 * The BGMAX import's part for debt claims (docs/MONEY.md "Debt claims"), as it does for invoices: the
 * claims a file's payments to our own bankgiro may pay are locked once before the batches, read per
 * batch (as the earlier batches left them), and what each batch paid of them is written with the
 * batch (payment-import.ts).
 */

/** A reference that can be an OCR reference of ours (digits only), the only kind looked up. */
const OCR_LIKE = /^[0-9]{2,25}$/;

/**
 * The references of payments to our own bankgiro (no issuer's): the OCR references of debt claims
 * they may pay (docs/MONEY.md "Debt claims").
 */
export function claimReferences(references: Set<string>, issuerOf: Map<string, string>): string[] {
  if (issuerOf.has(OUR_BANKGIRO)) return [];
  const prefix = `${OUR_BANKGIRO}:`;
  return [...references].filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length));
}

/** Locks the open debt claims the file's payments may pay, in one statement in id order. */
export async function lockClaims(tx: Tx, ocrs: string[]): Promise<void> {
  if (ocrs.length === 0) return;
  await tx.execute(sql`
    select count(*) from (
      select id from issuer_debt_claims where ocr in ${inList(ocrs)} order by id for update
    ) l`);
}

/** The debt claims a batch's payments to our own bankgiro may pay (locked before), by OCR reference. */
export async function readClaims(
  tx: Tx,
  fresh: Incoming[],
  issuerOf: Map<string, string>,
): Promise<Map<string, ClaimTarget>> {
  const wanted = new Set<string>();
  for (const p of fresh) {
    if (p.deduction || p.bankgiro !== OUR_BANKGIRO || issuerOf.has(p.bankgiro)) continue;
    if (OCR_LIKE.test(p.reference)) wanted.add(p.reference);
    if (p.extraReference !== null && OCR_LIKE.test(p.extraReference)) wanted.add(p.extraReference);
  }
  const claims = new Map<string, ClaimTarget>();
  if (wanted.size === 0) return claims;
  const found = rows<{
    id: string;
    issuer_id: string;
    ocr: string;
    currency: string;
    amount_minor: string;
    paid_minor: string;
    state: 'open' | 'paid';
    paid_at: Date | string | null;
  }>(
    await tx.execute(sql`
      select id, issuer_id, ocr, currency, amount_minor::text, paid_minor::text, state, paid_at
      from issuer_debt_claims where ocr in ${inList([...wanted])}`),
  );
  for (const f of found)
    claims.set(f.ocr, {
      id: f.id,
      issuerId: f.issuer_id,
      currency: f.currency,
      amountMinor: minorOf(f.amount_minor),
      paidMinor: minorOf(f.paid_minor),
      state: f.state,
      paidAt: f.paid_at === null ? null : new Date(f.paid_at),
    });
  return claims;
}

/** Writes what is paid of debt claims (and, once paid in full, their state), one statement. */
export async function updateClaims(tx: Tx, claims: ClaimTarget[]): Promise<void> {
  if (claims.length === 0) return;
  const values = claims.map((c) => ({
    id: c.id,
    paid: c.paidMinor,
    state: c.state,
    paid_at: c.paidAt?.toISOString() ?? null,
  }));
  await tx.execute(sql`
    update issuer_debt_claims set paid_minor = v.paid, state = v.state, paid_at = v.paid_at
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id uuid, paid bigint, state text, paid_at timestamptz)
    where issuer_debt_claims.id = v.id`);
}
