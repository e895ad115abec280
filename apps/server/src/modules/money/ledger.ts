import { randomUUID } from 'node:crypto';
import { FINANCED_SERVICES, type ServiceType } from '@portal/contracts';
import { assertMinorUnits } from '@portal/domain/money';
import { sql } from 'drizzle-orm';
import { bulkInsertRows } from '../../db/bulk';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/migrate';
import { postings } from '../../db/schema';

/**
 * The double-entry book under the money flow (docs/MONEY.md). Debits are positive, credits negative;
 * the postings of one journal sum to zero per currency. Accounts:
 *
 * | account | what it holds |
 * |---|---|
 * | receivable | what the recipient owes on the invoice while it is on our book (per invoice = remaining) |
 * | claims_held | the other side of a receivable we hold for the issuer without financing it |
 * | issuer_payable | what we owe the issuer (credit) or the issuer owes us (debit); settled by payouts |
 * | bank | our collection and payout bank account |
 * | fee_income | fees we deducted in settlements |
 * | overpayments | money paid beyond an invoice's remaining amount, owed back |
 * | interest_receivable / interest_income | late-payment interest charged to the recipient |
 * | reminder_fee_receivable / reminder_fee_income | the reminder fee charged with reminder 1 |
 * | unmatched_payments | money received that no invoice claimed yet |
 * | payment_deductions | credits a payer took off a deposit (BGMAX TK21): money the deposit lacks, owed back to us |
 * | credit_losses | receivables written off (customer loss, non-recourse) |
 * | plan_receivable | an active installment plan's principal not yet invoiced to its buyer (docs/INSTALLMENTS.md) |
 * | issuer_claim | an issuer's debt we claimed from it (a debt claim), until the issuer pays it to our bankgiro |
 */
export const LEDGER_ACCOUNTS = [
  'receivable',
  'claims_held',
  'issuer_payable',
  'bank',
  'fee_income',
  'overpayments',
  'interest_receivable',
  'interest_income',
  'reminder_fee_receivable',
  'reminder_fee_income',
  'unmatched_payments',
  'payment_deductions',
  'credit_losses',
  'plan_receivable',
  'issuer_claim',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** Why a journal was written; the settlement row kind follows from it for issuer_payable postings. */
export type JournalKind =
  | 'recognise'
  | 'payout'
  | 'payment'
  | 'overpayment'
  | 'unmatched'
  | 'deduction'
  | 'deductionCharge'
  | 'deductionSettle'
  | 'assign'
  | 'forward'
  | 'chargeBack'
  | 'interest'
  | 'reminderFee'
  | 'loss'
  | 'planApprove'
  | 'planInstallment'
  | 'planRecall'
  | 'planTransfer'
  | 'debtClaim'
  | 'claimPayment';

export interface PostingLine {
  account: LedgerAccount;
  /** Debit positive, credit negative, minor units. */
  amountMinor: number;
  invoiceId?: string | null;
  /** The installment plan of a plan's posting. */
  planId?: string | null;
  settlementId?: string | null;
  paymentId?: string | null;
  /** The debt claim of a posting the claim took, wrote or was paid by (docs/MONEY.md "Debt claims"). */
  claimId?: string | null;
}

export interface Journal {
  issuerId: string | null;
  currency: string;
  kind: JournalKind;
  at: Date;
  lines: PostingLine[];
}

export class UnbalancedJournalError extends Error {
  constructor(
    readonly kind: JournalKind,
    readonly sumMinor: bigint,
  ) {
    super(`journal ${kind} does not balance: its postings sum to ${sumMinor} minor units`);
  }
}

export type PostingRow = typeof postings.$inferInsert;

/**
 * The rows of one journal, checked: throws `UnbalancedJournalError` when the lines do not sum to zero
 * and a RangeError on a non-integer amount. Lines of zero are left out; all zeros gives no rows.
 */
export function journalRows(journal: Journal): PostingRow[] {
  let sum = 0n;
  for (const line of journal.lines) {
    assertMinorUnits(line.amountMinor, `${line.account} posting`);
    sum += BigInt(line.amountMinor);
  }
  if (sum !== 0n) throw new UnbalancedJournalError(journal.kind, sum);
  const lines = journal.lines.filter((l) => l.amountMinor !== 0);
  if (lines.length === 0) return [];
  const journalId = randomUUID();
  return lines.map((l) => ({
    journalId,
    issuerId: journal.issuerId,
    invoiceId: l.invoiceId ?? null,
    planId: l.planId ?? null,
    account: l.account,
    amountMinor: l.amountMinor,
    currency: journal.currency,
    kind: journal.kind,
    settlementId: l.settlementId ?? null,
    paymentId: l.paymentId ?? null,
    claimId: l.claimId ?? null,
    at: journal.at,
  }));
}

/** Rows per INSERT when many are written at once (well under PostgreSQL's 65 535 parameters). */
export const INSERT_CHUNK = 2_000;

/** The columns of a posting that a bulk insert writes, with their SQL types (all but the serial id). */
const POSTING_COLUMNS = {
  journalId: 'uuid',
  issuerId: 'uuid',
  invoiceId: 'uuid',
  planId: 'uuid',
  account: 'text',
  amountMinor: 'bigint',
  currency: 'text',
  kind: 'text',
  settlementId: 'uuid',
  paymentId: 'uuid',
  claimId: 'uuid',
  at: 'timestamptz',
} as const;

/** Inserts checked posting rows (from `journalRows`) in bulk, in the caller's transaction. */
export async function insertPostingRows(tx: Tx | Db, rows: PostingRow[]): Promise<void> {
  await bulkInsertRows(tx, postings, POSTING_COLUMNS, rows);
}

/**
 * Writes one journal in the caller's transaction and returns its id. Refuses (throws, so the
 * transaction rolls back) a journal whose lines do not sum to zero or hold a non-integer amount;
 * lines of zero are left out, and a journal of nothing but zeros writes nothing.
 */
export async function postJournal(tx: Tx | Db, journal: Journal): Promise<string | null> {
  const rows = journalRows(journal);
  if (rows.length === 0) return null;
  await tx.insert(postings).values(rows);
  return rows[0]?.journalId ?? null;
}

export function isFinanced(service: string): boolean {
  return FINANCED_SERVICES.includes(service as ServiceType);
}

/**
 * An invoice enters our book when it becomes payable to us (approved, or distributed for a service we
 * do not finance): the recipient owes its amount to pay. A financed invoice is bought, so we owe the
 * issuer that amount (paid out, less fees, by the next payout run); one we only collect is held for the
 * issuer until the recipient pays.
 */
export async function recogniseInvoice(
  tx: Tx,
  invoice: { id: string; issuerId: string; currency: string; service: string; remainingMinor: number },
  at: Date,
): Promise<void> {
  await postJournal(tx, {
    issuerId: invoice.issuerId,
    currency: invoice.currency,
    kind: 'recognise',
    at,
    lines: [
      { account: 'receivable', amountMinor: invoice.remainingMinor, invoiceId: invoice.id },
      {
        account: isFinanced(invoice.service) ? 'issuer_payable' : 'claims_held',
        amountMinor: -invoice.remainingMinor,
        invoiceId: invoice.id,
      },
    ],
  });
}

/**
 * An installment plan is approved (docs/INSTALLMENTS.md "Money"): we buy the buyer's debt, so the
 * plan's principal is ours to collect and the financed amount is owed to the issuer, paid by the next
 * payout run as a `planPayout` row less the issuer's fee.
 */
export async function bookPlanApproval(
  tx: Tx,
  plan: { id: string; issuerId: string; currency: string; financedMinor: number },
  at: Date,
): Promise<void> {
  await postJournal(tx, {
    issuerId: plan.issuerId,
    currency: plan.currency,
    kind: 'planApprove',
    at,
    lines: [
      { account: 'plan_receivable', amountMinor: plan.financedMinor, planId: plan.id },
      { account: 'issuer_payable', amountMinor: -plan.financedMinor, planId: plan.id },
    ],
  });
}

/**
 * An installment's invoice is issued to the buyer: the invoice's receivable is its amount, of which
 * the principal part comes off the plan's receivable and the fee part is our income. A recall's
 * invoice (the whole remaining principal) is the same with no fee.
 */
export async function bookPlanInvoice(
  tx: Tx,
  entry: {
    planId: string;
    issuerId: string;
    currency: string;
    invoiceId: string;
    principalMinor: number;
    feeMinor: number;
    kind: 'planInstallment' | 'planRecall';
  },
  at: Date,
): Promise<void> {
  await postJournal(tx, {
    issuerId: entry.issuerId,
    currency: entry.currency,
    kind: entry.kind,
    at,
    lines: [
      {
        account: 'receivable',
        amountMinor: entry.principalMinor + entry.feeMinor,
        invoiceId: entry.invoiceId,
      },
      {
        account: 'plan_receivable',
        amountMinor: -entry.principalMinor,
        planId: entry.planId,
        invoiceId: entry.invoiceId,
      },
      { account: 'fee_income', amountMinor: -entry.feeMinor, invoiceId: entry.invoiceId },
    ],
  });
}

/** A replacing plan takes over the open principal of the plan it replaces; no money moves. */
export async function bookPlanTransfer(
  tx: Tx,
  entry: { fromPlanId: string; toPlanId: string; issuerId: string; currency: string; principalMinor: number },
  at: Date,
): Promise<void> {
  await postJournal(tx, {
    issuerId: entry.issuerId,
    currency: entry.currency,
    kind: 'planTransfer',
    at,
    lines: [
      { account: 'plan_receivable', amountMinor: entry.principalMinor, planId: entry.toPlanId },
      { account: 'plan_receivable', amountMinor: -entry.principalMinor, planId: entry.fromPlanId },
    ],
  });
}

export interface BookViolation {
  rule:
    | 'journal_balance'
    | 'invoice_remaining'
    | 'settlement_total'
    | 'settlement_row'
    | 'settlement_bank'
    | 'payment_booking'
    | 'plan_receivable'
    | 'debt_claim';
  id: string;
  detail: string;
}

/**
 * Checks the book's invariants over the whole database (or one issuer): every journal balances per
 * currency; for every invoice on our book (states 2, 3, 4) its receivable postings sum to its
 * remaining amount, and for one that left it (5 charged back, 8 customer loss) to zero; every
 * settlement row is gross − fee = net and every settlement's rows sum to its totals; every
 * settlement's total is never negative and its bank postings are exactly that total paid out; every
 * incoming payment's bank postings are its signed amount (so the bank holds the files' deposits), and
 * its unmatched_payments and payment_deductions postings hold it exactly while it is unmatched or an
 * open deduction, and nothing otherwise; a resolved deduction's journal put it on the issuer or the
 * invoice instead; every debt claim's issuer_claim postings are what is left to pay of it
 * (`debt_claim`). Returns the violations; an empty list is a sound book.
 */
export async function checkBooks(db: Db | Tx, issuerId?: string): Promise<BookViolation[]> {
  const issuerFilter = (column: string) => (issuerId ? sql`and ${sql.raw(column)} = ${issuerId}` : sql``);
  const found: BookViolation[] = [];
  const journals = rows<{ journal_id: string; currency: string; total: string }>(
    await db.execute(sql`
      select journal_id, currency, sum(amount_minor)::text as total from postings
      where true ${issuerFilter('issuer_id')}
      group by journal_id, currency having sum(amount_minor) <> 0`),
  );
  for (const j of journals)
    found.push({ rule: 'journal_balance', id: j.journal_id, detail: `${j.currency} sum ${j.total}` });
  const invoicesOff = rows<{ id: string; remaining: string; booked: string }>(
    await db.execute(sql`
      select i.id, i.remaining_minor::text as remaining, coalesce(p.total, 0)::text as booked
      from invoices i
      left join (
        select invoice_id, sum(amount_minor) as total from postings
        where account = 'receivable' ${issuerFilter('issuer_id')} group by invoice_id
      ) p on p.invoice_id = i.id
      where ${issuerId ? sql`i.issuer_id = ${issuerId}` : sql`true`}
        and ((i.state in (2, 3, 4) and coalesce(p.total, 0) <> i.remaining_minor)
          or (i.state in (5, 8) and coalesce(p.total, 0) <> 0))`),
  );
  for (const i of invoicesOff)
    found.push({
      rule: 'invoice_remaining',
      id: i.id,
      detail: `remaining ${i.remaining}, receivable postings ${i.booked}`,
    });
  const rowsOff = rows<{ id: string }>(
    await db.execute(sql`
      select id from settlement_rows
      where gross_minor - fee_minor <> net_minor ${issuerFilter('issuer_id')}`),
  );
  for (const r of rowsOff) found.push({ rule: 'settlement_row', id: r.id, detail: 'gross − fee ≠ net' });
  const settlementsOff = rows<{ id: string }>(
    await db.execute(sql`
      select s.id from settlements s
      left join (
        select settlement_id, count(*) as n, sum(gross_minor) as gross, sum(fee_minor) as fee,
               sum(net_minor) as net
        from settlement_rows group by settlement_id
      ) r on r.settlement_id = s.id
      where (coalesce(r.n, 0) <> s.row_count or coalesce(r.gross, 0) <> s.gross_minor
         or coalesce(r.fee, 0) <> s.fee_minor or coalesce(r.net, 0) <> s.total_payout_minor)
        ${issuerFilter('s.issuer_id')}`),
  );
  for (const s of settlementsOff)
    found.push({ rule: 'settlement_total', id: s.id, detail: 'rows do not sum to the totals' });
  // What left the bank for a settlement is its total, never less than nothing: a charge back is set off
  // against payouts, it is no money the issuer paid us.
  const bankOff = rows<{ id: string; total: string; bank: string }>(
    await db.execute(sql`
      select s.id, s.total_payout_minor::text as total, coalesce(b.paid, 0)::text as bank
      from settlements s
      left join (
        select settlement_id, -sum(amount_minor) as paid from postings
        where account = 'bank' and settlement_id is not null group by settlement_id
      ) b on b.settlement_id = s.id
      where (s.total_payout_minor < 0 or coalesce(b.paid, 0) <> s.total_payout_minor)
        ${issuerFilter('s.issuer_id')}`),
  );
  for (const s of bankOff)
    found.push({
      rule: 'settlement_bank',
      id: s.id,
      detail: `total ${s.total}, paid from the bank ${s.bank}`,
    });
  // Per incoming payment: the bank took its signed amount (a TK21 deduction is negative); it waits on
  // unmatched_payments only while unmatched, on payment_deductions only as a deduction no operator has
  // resolved; a resolved one's journal moved exactly its amount to the issuer or the invoice (`moved`:
  // its other postings, issuer_payable or receivable and claims_held), and nothing else did.
  const paymentsOff = rows<{
    id: string;
    status: string;
    amount: string;
    bank: string;
    open: string;
    off: string;
    moved: string;
  }>(
    await db.execute(sql`
      select pay.id, pay.status, pay.amount_minor::text as amount, coalesce(b.bank, 0)::text as bank,
             coalesce(b.open, 0)::text as open, coalesce(b.off, 0)::text as off,
             coalesce(b.moved, 0)::text as moved
      from payments pay
      left join (
        select payment_id,
               sum(amount_minor) filter (where account = 'bank') as bank,
               sum(amount_minor) filter (where account = 'unmatched_payments') as open,
               sum(amount_minor) filter (where account = 'payment_deductions') as off,
               sum(amount_minor) filter (
                 where kind in ('deductionCharge', 'deductionSettle') and account <> 'payment_deductions') as moved
        from postings where payment_id is not null group by payment_id
      ) b on b.payment_id = pay.id
      where (coalesce(b.bank, 0) <> pay.amount_minor
         or coalesce(b.open, 0) <> case when pay.status = 'unmatched' then -pay.amount_minor else 0 end
         or coalesce(b.off, 0) <> case when pay.status = 'deduction' and pay.deduction_action is null
                                      then -pay.amount_minor else 0 end
         or coalesce(b.moved, 0) <> case when pay.status = 'deduction' and pay.deduction_action is not null
                                        then -pay.amount_minor else 0 end)
        ${issuerFilter('pay.issuer_id')}`),
  );
  for (const p of paymentsOff)
    found.push({
      rule: 'payment_booking',
      id: p.id,
      detail: `${p.status} ${p.amount}: bank ${p.bank}, unmatched_payments ${p.open}, payment_deductions ${p.off}, resolved ${p.moved}`,
    });
  // Per installment plan: its plan_receivable is the principal not yet invoiced while it is active or
  // under final notice (2, 7); nothing before approval, nor once completed, recalled or replaced.
  const plansOff = rows<{ id: string; state: number; open: string; booked: string }>(
    await db.execute(sql`
      select pl.id, pl.state, (pl.financed_minor - coalesce(r.invoiced, 0))::text as open,
             coalesce(p.total, 0)::text as booked
      from installment_plans pl
      left join (
        select plan_id, sum(principal_minor) as invoiced from installment_plan_rows
        where invoice_id is not null group by plan_id
      ) r on r.plan_id = pl.id
      left join (
        select plan_id, sum(amount_minor) as total from postings
        where account = 'plan_receivable' ${issuerFilter('issuer_id')} group by plan_id
      ) p on p.plan_id = pl.id
      where ${issuerId ? sql`pl.issuer_id = ${issuerId}` : sql`true`}
        and coalesce(p.total, 0) <> case when pl.state in (2, 7)
          then pl.financed_minor - coalesce(r.invoiced, 0) else 0 end`),
  );
  for (const p of plansOff)
    found.push({
      rule: 'plan_receivable',
      id: p.id,
      detail: `state ${p.state}, principal not invoiced ${p.open}, plan_receivable postings ${p.booked}`,
    });
  found.push(...(await debtClaimsOff(db, issuerFilter)));
  return found;
}

/**
 * Per debt claim (docs/MONEY.md "Debt claims"): its issuer_claim postings are what is left to pay
 * (amount − paid); the issuer_payable postings it took and wrote sum to zero (each taken one closed
 * once); its rows sum to its totals (−net = amount); its payments sum to what it was paid. And no
 * issuer_claim posting belongs to no claim.
 */
async function debtClaimsOff(
  db: Db | Tx,
  issuerFilter: (column: string) => ReturnType<typeof sql>,
): Promise<BookViolation[]> {
  const off = rows<{
    id: string;
    amount: string;
    paid: string;
    claim: string;
    payable: string;
    rows_net: string;
    payments: string;
  }>(
    await db.execute(sql`
      select c.id, c.amount_minor::text as amount, c.paid_minor::text as paid,
             coalesce(p.claim, 0)::text as claim, coalesce(p.payable, 0)::text as payable,
             coalesce(r.net, 0)::text as rows_net, coalesce(pay.total, 0)::text as payments
      from issuer_debt_claims c
      left join (
        select claim_id,
               sum(amount_minor) filter (where account = 'issuer_claim') as claim,
               sum(amount_minor) filter (where account = 'issuer_payable') as payable
        from postings where claim_id is not null group by claim_id
      ) p on p.claim_id = c.id
      left join (
        select claim_id, sum(net_minor) as net, count(*) as n, sum(gross_minor) as gross, sum(fee_minor) as fee
        from issuer_debt_claim_rows group by claim_id
      ) r on r.claim_id = c.id
      left join (
        select claim_id, sum(amount_minor) as total from payments
        where claim_id is not null and status = 'claim' group by claim_id
      ) pay on pay.claim_id = c.id
      where (coalesce(p.claim, 0) <> c.amount_minor - c.paid_minor
         or coalesce(p.payable, 0) <> 0
         or coalesce(r.net, 0) <> -c.amount_minor
         or coalesce(r.n, 0) <> c.row_count or coalesce(r.gross, 0) <> c.gross_minor
         or coalesce(r.fee, 0) <> c.fee_minor
         or coalesce(pay.total, 0) <> c.paid_minor)
        ${issuerFilter('c.issuer_id')}`),
  );
  const found: BookViolation[] = off.map((c) => ({
    rule: 'debt_claim',
    id: c.id,
    detail: `amount ${c.amount}, paid ${c.paid} (payments ${c.payments}): issuer_claim postings ${c.claim}, issuer_payable postings ${c.payable}, rows' net ${c.rows_net}`,
  }));
  const loose = rows<{ journal_id: string }>(
    await db.execute(sql`
      select distinct journal_id from postings
      where account = 'issuer_claim' and claim_id is null ${issuerFilter('issuer_id')}`),
  );
  for (const j of loose)
    found.push({ rule: 'debt_claim', id: j.journal_id, detail: 'issuer_claim posting of no claim' });
  return found;
}
