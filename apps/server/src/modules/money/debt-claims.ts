import { randomUUID } from 'node:crypto';
import { addDays } from '@portal/domain/calendar-date';
import { type Currency, sumMinor } from '@portal/domain/money';
import {
  DEBT_CLAIM_DUE_DAYS,
  DEBT_CLAIM_REMINDER_DAYS,
  debtClaimRemindersOn,
  OUR_BANKGIRO,
} from '@portal/domain/money-flow';
import { createOcrReference } from '@portal/domain/ocr-reference';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { inList } from '../../db/in-list';
import { lockById } from '../../db/locks';
import { rows } from '../../db/migrate';
import { selectPrepared } from '../../db/prepared';
import {
  installmentPlans,
  invoices,
  issuerDebtClaimRows,
  issuerDebtClaims,
  issuers,
  messages,
  payments,
  recipients,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { minorOf } from '../../lib/minor';
import { todayIn } from '../../lib/today';
import { noticeColumns } from '../../services/notices';
import { failureOf, type IssuerFailure } from './issuer-failure';
import { insertPostingRows, journalRows } from './ledger';
import { closingLines, localeOf, lockIssuerPayouts, type OpenLine, openLinesOf } from './payouts';

/**
 * Debt claims (issue #16, docs/MONEY.md "Debt claims"): a debt that no payouts cover (the issuer's
 * open issuer_payable postings in a currency whose settlement total would be negative) waits
 * `issuers.debt_claim_days` for payouts to set it off; then it becomes a claim on the issuer: a
 * statement of the postings it takes (each charge back, and the payouts set off against them), an OCR
 * reference and a due date, paid to our own bankgiro. The claim's journal is Dr issuer_claim / Cr
 * issuer_payable (each taken posting closed, its fee taken as a settlement would), the taken postings
 * are stamped with the claim so no payout run takes them again, and the issuer is told. A BGMAX
 * payment to our bankgiro with the claim's OCR pays it (payment-matching.ts: Dr bank / Cr
 * issuer_claim); the daily job makes the claims and sends the reminders.
 */

/** OCR references of debt claims are made from this plus the claim's number (invoices' start at 100,000). */
const DEBT_CLAIM_OCR_BASE = 80_000_000;

/** A claim's OCR reference, with length and check digit: unique as its number is. */
export function debtClaimOcr(number: number): string {
  return createOcrReference(DEBT_CLAIM_OCR_BASE + number);
}

export interface MadeClaim {
  claimId: string;
  number: number;
  issuerId: string;
  currency: string;
  amountMinor: number;
  rowCount: number;
  ocr: string;
  dueDate: string;
}

/**
 * Makes the issuer's debt claims now, in the caller's transaction, under the issuer's payout lock (a
 * payout run of the issuer waits, and then finds the taken postings gone): one claim per currency
 * (of `currencies`, or any) whose open postings' total is negative. A currency whose total is not
 * negative is left for the next payout run. Returns the claims made; none when there is no debt.
 */
export async function claimIssuerDebt(
  tx: Tx,
  issuerId: string,
  opts: { date: string; now: Date; operatorId: string | null; currencies?: readonly string[] },
): Promise<MadeClaim[]> {
  await lockIssuerPayouts(tx, issuerId);
  const made: MadeClaim[] = [];
  for (const lines of await openLinesOf(tx, issuerId)) {
    const first = (lines[0] as OpenLine).p;
    if (opts.currencies && !opts.currencies.includes(first.currency)) continue;
    const grossMinor = sumMinor(lines.map((l) => l.grossMinor));
    const feeMinor = sumMinor(lines.map((l) => l.feeMinor));
    const amountMinor = feeMinor - grossMinor;
    if (amountMinor <= 0) continue;
    made.push(await writeClaim(tx, lines, { grossMinor, feeMinor, amountMinor }, opts));
  }
  return made;
}

async function writeClaim(
  tx: Tx,
  lines: OpenLine[],
  totals: { grossMinor: number; feeMinor: number; amountMinor: number },
  opts: { date: string; now: Date; operatorId: string | null },
): Promise<MadeClaim> {
  const first = (lines[0] as OpenLine).p;
  const claimId = randomUUID();
  const [seq] = rows<{ n: string }>(
    await tx.execute(sql`select nextval('issuer_debt_claims_number_seq')::text as n`),
  );
  const number = Number(seq?.n);
  const ocr = debtClaimOcr(number);
  const dueDate = addDays(opts.date, DEBT_CLAIM_DUE_DAYS);
  await tx.insert(issuerDebtClaims).values({
    id: claimId,
    number,
    issuerId: first.issuer_id,
    currency: first.currency,
    amountMinor: totals.amountMinor,
    grossMinor: totals.grossMinor,
    feeMinor: totals.feeMinor,
    rowCount: lines.length,
    ocr,
    claimDate: opts.date,
    dueDate,
    operatorId: opts.operatorId,
    createdAt: opts.now,
  });
  await tx.insert(issuerDebtClaimRows).values(
    lines.map((l) => ({
      claimId,
      postingId: l.p.id,
      invoiceId: l.p.invoice_id,
      planId: l.p.plan_id,
      kind: l.kind,
      paymentId: l.p.payment_id,
      postedAt: new Date(l.p.at),
      position: l.position,
      grossMinor: l.grossMinor,
      feeMinor: l.feeMinor,
      netMinor: l.netMinor,
    })),
  );
  // As a settlement's journal, with the claim in place of the bank: each taken posting is closed and
  // its fee taken, and what the issuer owes moves to issuer_claim.
  await insertPostingRows(
    tx,
    journalRows({
      issuerId: first.issuer_id,
      currency: first.currency,
      kind: 'debtClaim',
      at: opts.now,
      lines: [
        ...closingLines(lines, { claimId }),
        { account: 'issuer_claim', amountMinor: totals.amountMinor, claimId },
      ],
    }),
  );
  await tx.execute(sql`
    update postings set claim_id = ${claimId}
    where id in ${inList(
      lines.map((l) => l.p.id),
      'bigint',
    )}`);
  await tx.insert(messages).values({
    issuerId: first.issuer_id,
    ...noticeColumns(
      {
        code: 'debtClaim',
        params: {
          number,
          rows: lines.length,
          amountMinor: totals.amountMinor,
          currency: first.currency as Currency,
          dueDate,
          ocr,
          bankgiro: bankgiroText(OUR_BANKGIRO),
        },
      },
      localeOf(first.country),
    ),
    invoiceId: null,
    invoiceNumber: null,
    date: opts.now,
    read: false,
  });
  return {
    claimId,
    number,
    issuerId: first.issuer_id,
    currency: first.currency,
    amountMinor: totals.amountMinor,
    rowCount: lines.length,
    ocr,
    dueDate,
  };
}

/** A bankgiro number as people write it: 1234-5678 or 123-4567. */
export function bankgiroText(digits: string): string {
  return `${digits.slice(0, -4)}-${digits.slice(-4)}`;
}

export interface DebtClaimsResult {
  claims: MadeClaim[];
  reminders: number;
  failures: IssuerFailure[];
}

/**
 * The daily job's step (docs/MONEY.md "The daily job"): every issuer and currency whose open debt's
 * oldest charge back (an open debit of issuer_payable) is at least the issuer's `debt_claim_days` old
 * on `date` is claimed, each issuer in its own transaction; then every open claim past a reminder day
 * gets its reminder, each claim in its own transaction. A failure rolls back that issuer or claim alone
 * and is answered in `failures`. Safe to run twice: the second run finds the postings taken and the
 * reminders recorded.
 */
export async function runDebtClaims(db: Db, opts: { date: string; now: Date }): Promise<DebtClaimsResult> {
  const result: DebtClaimsResult = { claims: [], reminders: 0, failures: [] };
  const due = rows<{ issuer_id: string; currency: string }>(
    await db.execute(sql`
      select p.issuer_id, p.currency from postings p
      join issuers iss on iss.id = p.issuer_id
      where p.account = 'issuer_payable' and p.settlement_id is null and p.claim_id is null
      group by p.issuer_id, p.currency, iss.debt_claim_days
      having min((p.at at time zone 'Europe/Stockholm')::date) filter (where p.amount_minor > 0)
        <= ${opts.date}::date - iss.debt_claim_days
      order by p.issuer_id, p.currency`),
  );
  const byIssuer = new Map<string, string[]>();
  for (const d of due) byIssuer.set(d.issuer_id, [...(byIssuer.get(d.issuer_id) ?? []), d.currency]);
  for (const [issuerId, currencies] of byIssuer) {
    try {
      const made = await db.transaction((tx) =>
        claimIssuerDebt(tx, issuerId, { date: opts.date, now: opts.now, operatorId: null, currencies }),
      );
      result.claims.push(...made);
    } catch (error) {
      result.failures.push(failureOf(issuerId, error));
    }
  }
  const open = await db
    .select({ id: issuerDebtClaims.id, issuerId: issuerDebtClaims.issuerId })
    .from(issuerDebtClaims)
    .where(
      and(
        eq(issuerDebtClaims.state, 'open'),
        sql`${issuerDebtClaims.dueDate} + ${DEBT_CLAIM_REMINDER_DAYS[0]}::int <= ${opts.date}::date`,
      ),
    )
    .orderBy(asc(issuerDebtClaims.dueDate), asc(issuerDebtClaims.id));
  for (const claim of open) {
    try {
      if (await db.transaction((tx) => remindOne(tx, claim.id, opts))) result.reminders++;
    } catch (error) {
      result.failures.push(failureOf(claim.issuerId, error));
    }
  }
  return result;
}

/**
 * One claim's reminder, when it has reached a reminder day it was not yet reminded for: recorded on
 * the claim (`reminders_sent`, the day) with a message to the issuer. A job that missed days sends
 * the latest reminder reached, once.
 */
async function remindOne(tx: Tx, claimId: string, opts: { date: string; now: Date }): Promise<boolean> {
  const claim = await lockById(tx, issuerDebtClaims, claimId);
  if (claim?.state !== 'open') return false;
  const reached = debtClaimRemindersOn(claim.dueDate, opts.date);
  if (reached <= claim.remindersSent) return false;
  await tx
    .update(issuerDebtClaims)
    .set({ remindersSent: reached, lastReminderDate: opts.date })
    .where(eq(issuerDebtClaims.id, claim.id));
  const [issuer] = await tx
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, claim.issuerId));
  await tx.insert(messages).values({
    issuerId: claim.issuerId,
    ...noticeColumns(
      {
        code: 'debtClaimReminder',
        params: {
          number: claim.number,
          reminder: reached,
          amountMinor: claim.amountMinor - claim.paidMinor,
          currency: claim.currency as Currency,
          dueDate: claim.dueDate,
          ocr: claim.ocr,
          bankgiro: bankgiroText(OUR_BANKGIRO),
        },
      },
      localeOf(issuer?.country ?? 'SE'),
    ),
    invoiceId: null,
    invoiceNumber: null,
    date: opts.now,
    read: false,
  });
  return true;
}

type ClaimRow = typeof issuerDebtClaims.$inferSelect;

/** A claim as the customer and the back office see it. */
export function claimView(c: ClaimRow) {
  return {
    claimID: c.id,
    number: c.number,
    currency: c.currency,
    amountMinor: c.amountMinor,
    paidMinor: c.paidMinor,
    remainingMinor: c.amountMinor - c.paidMinor,
    grossMinor: c.grossMinor,
    feeMinor: c.feeMinor,
    rowCount: c.rowCount,
    ocr: c.ocr,
    bankgiro: bankgiroText(OUR_BANKGIRO),
    claimDate: c.claimDate,
    dueDate: c.dueDate,
    state: c.state,
    remindersSent: c.remindersSent,
    paidDate: c.paidAt ? todayIn(c.paidAt) : null,
  };
}

/** The issuer's debt claims, newest first (an issuer has a few at most). */
export async function listIssuerClaims(db: Db, issuerId: string) {
  const found = await db
    .select()
    .from(issuerDebtClaims)
    .where(eq(issuerDebtClaims.issuerId, issuerId))
    .orderBy(desc(issuerDebtClaims.createdAt), desc(issuerDebtClaims.id));
  return { items: found.map(claimView) };
}

/**
 * One of the issuer's claims as its statement: the claim, each posting it took (the charge backs and
 * what was set off against them, with invoice number, recipient, date and amounts) and the payments
 * that paid it. Another issuer's claim is not found.
 */
export async function getIssuerClaim(db: Db, issuerId: string, claimId: string) {
  const [claim] = await db
    .select()
    .from(issuerDebtClaims)
    .where(and(eq(issuerDebtClaims.id, claimId), eq(issuerDebtClaims.issuerId, issuerId)));
  if (!claim) throw new ApiError('debtClaims.not_found');
  const claimRows = await db
    .select({
      row: issuerDebtClaimRows,
      invoiceNumber: sql<string>`coalesce(${invoices.invoiceNumber}, ${installmentPlans.loanNumber}, '')`,
      recipientName: sql<string>`coalesce(${recipients.name}, '')`,
      deductionReference: payments.reference,
    })
    .from(issuerDebtClaimRows)
    .leftJoin(invoices, eq(invoices.id, issuerDebtClaimRows.invoiceId))
    .leftJoin(installmentPlans, eq(installmentPlans.id, issuerDebtClaimRows.planId))
    .leftJoin(
      recipients,
      sql`${recipients.id} = coalesce(${invoices.recipientId}, ${installmentPlans.recipientId})`,
    )
    .leftJoin(
      payments,
      and(eq(payments.id, issuerDebtClaimRows.paymentId), eq(issuerDebtClaimRows.kind, 'deduction')),
    )
    .where(eq(issuerDebtClaimRows.claimId, claim.id))
    .orderBy(asc(issuerDebtClaimRows.position));
  const paid = await db
    .select()
    .from(payments)
    .where(and(eq(payments.claimId, claim.id), eq(payments.status, 'claim')))
    .orderBy(asc(payments.paymentDate), asc(payments.id));
  return {
    claim: claimView(claim),
    rows: claimRows.map((r) => ({
      invoiceID: r.row.invoiceId,
      planID: r.row.planId,
      invoiceNumber: r.invoiceNumber,
      recipientName: r.recipientName,
      kind: r.row.kind,
      reference: r.deductionReference,
      date: todayIn(r.row.postedAt),
      grossMinor: r.row.grossMinor,
      feeMinor: r.row.feeMinor,
      netMinor: r.row.netMinor,
    })),
    payments: paid.map((p) => ({
      paymentID: p.id,
      paymentDate: p.paymentDate,
      reference: p.reference,
      amountMinor: p.amountMinor,
    })),
  };
}

/** Every claim for the back office, newest first, with its issuer's name; `state` filters. */
export async function listAllClaims(db: Db, state?: 'open' | 'paid') {
  const found = await db
    .select({ claim: issuerDebtClaims, issuerName: issuers.name })
    .from(issuerDebtClaims)
    .innerJoin(issuers, eq(issuers.id, issuerDebtClaims.issuerId))
    .where(state ? eq(issuerDebtClaims.state, state) : undefined)
    .orderBy(desc(issuerDebtClaims.createdAt), desc(issuerDebtClaims.id))
    .limit(500);
  return {
    items: found.map((f) => ({
      ...claimView(f.claim),
      issuerID: f.claim.issuerId,
      issuerName: f.issuerName,
    })),
  };
}

/**
 * What the issuer and we owe each other in `currency` (the dashboard): what the next payout run would
 * pay before fees (its open issuer_payable postings when they are owed to it), and what it owes us:
 * what is left of its open claims, and an open debt not yet claimed.
 */
export async function balanceOf(db: Db, issuerId: string, currency: string) {
  // One statement (the dashboard runs it beside its other figures): both sums by their own indexes.
  const [found] = await selectPrepared<{ open: string; claimed: string; claims: number }>(
    db,
    sql`
      select
        (select coalesce(sum(amount_minor), 0) from postings
          where account = 'issuer_payable' and settlement_id is null and claim_id is null
            and issuer_id = ${issuerId} and currency = ${currency})::text as open,
        coalesce(sum(amount_minor - paid_minor), 0)::text as claimed, count(*)::int as claims
      from issuer_debt_claims where issuer_id = ${issuerId} and currency = ${currency} and state = 'open'`,
  );
  const payable = minorOf(found?.open ?? '0');
  return {
    owedToYouMinor: Math.max(0, -payable),
    owedByYouMinor: minorOf(found?.claimed ?? '0') + Math.max(0, payable),
    openClaims: Number(found?.claims ?? 0),
  };
}
