import { randomUUID } from 'node:crypto';
import { INVOICE_EVENT, PLAN_EVENT } from '@portal/contracts';
import type { Currency } from '@portal/domain/money';
import { sumMinor } from '@portal/domain/money';
import { type FeeTerms, feeFor } from '@portal/domain/money-flow';
import type { Locale } from '@portal/i18n';
import { inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { inList } from '../../db/in-list';
import { rows } from '../../db/migrate';
import {
  installmentPlanEvents,
  invoiceEvents,
  issuerFees,
  messages,
  settlementRows,
  settlements,
} from '../../db/schema';
import { minorOf } from '../../lib/minor';
import { noticeColumns } from '../../services/notices';
import { payoutAccountsOf } from '../bank-verification/bank-verification.service';
import { failureOf, type IssuerFailure } from './issuer-failure';
import {
  INSERT_CHUNK,
  insertPostingRows,
  isFinanced,
  journalRows,
  type PostingLine,
  type PostingRow,
} from './ledger';

/**
 * Any constant: a payout run takes this transaction-level advisory lock with each issuer's hash, so
 * two runs never settle the same issuer at once.
 */
const PAYOUT_LOCK_ID = 727_002;

/** The service whose fee terms a plan's payout pays (docs/INSTALLMENTS.md "Money"). */
export const PLAN_SERVICE = 'loans';

export type SettlementRowKind = 'payout' | 'payment' | 'chargeBack' | 'planPayout' | 'deduction';

export interface PayoutOptions {
  /** The day the money reaches the issuers, `YYYY-MM-DD`. */
  payoutDate: string;
  now: Date;
  operatorId: string | null;
  /**
   * Written in each issuer's transaction once its part is done (the audit row of what it was paid),
   * so the settlement and its record commit together or not at all.
   */
  record?: (tx: Tx, part: PayoutRun) => Promise<void>;
  /** Written once every issuer is done: the record of the whole run, with the failed issuers. */
  recordRun?: (tx: Tx, run: PayoutRun) => Promise<void>;
}

export interface PayoutSettlement {
  settlementId: string;
  number: number;
  issuerId: string;
  currency: string;
  rowCount: number;
  grossMinor: number;
  feeMinor: number;
  totalPayoutMinor: number;
  /** The verified account the money goes to, masked. */
  paidTo: string;
}

/** Why a payout is held (docs/MONEY.md "Payout holds"). */
export type PayoutHoldReason = 'bank_account_unverified';

/**
 * An issuer and currency whose payout a run held: nothing is settled or booked, its issuer_payable
 * postings stay open and the first run after the hold is lifted pays them.
 */
export interface HeldPayout {
  issuerId: string;
  currency: string;
  rowCount: number;
  /** What the settlement would have paid (gross less fees). */
  totalMinor: number;
  reason: PayoutHoldReason;
}

/**
 * An issuer and currency whose charge backs exceed its payouts in a run: nothing is settled, its
 * issuer_payable postings stay open and the next run with enough payouts sets them off.
 */
export interface CarriedBalance {
  issuerId: string;
  currency: string;
  /** The open postings that would have been rows. */
  rowCount: number;
  /** What the issuer owes us, as the (negative) total the settlement would have had. */
  totalMinor: number;
}

export interface PayoutRun {
  batchId: string;
  settlements: PayoutSettlement[];
  /** Issuers left unsettled because they owe us more than we owe them. */
  carried: CarriedBalance[];
  /** Issuers whose payout is held: no verified bank account to pay to. */
  held: HeldPayout[];
  /** Issuers whose settlement failed; their postings stay open for the next run. */
  failed: IssuerFailure[];
}

export interface Unsettled {
  id: number;
  issuer_id: string;
  currency: string;
  /** Exactly one of the two: the posting's invoice, or its installment plan (a plan's payout). */
  invoice_id: string | null;
  plan_id: string | null;
  plan_state: number | null;
  amount_minor: string;
  kind: string;
  payment_id: string | null;
  /** When the posting was written (a row's date on a debt claim). */
  at: Date | string;
  service: string;
  invoice_number: string;
  country: 'SE' | 'FI';
}

/** The settlement row an unsettled issuer_payable posting becomes, by the journal that wrote it. */
export function rowKindOf(postingKind: string): SettlementRowKind {
  if (postingKind === 'recognise') return 'payout';
  if (postingKind === 'chargeBack') return 'chargeBack';
  if (postingKind === 'planApprove') return 'planPayout';
  // A BGMAX deduction charged to the issuer, or settled against an invoice we only collect.
  if (postingKind === 'deductionCharge' || postingKind === 'deductionSettle') return 'deduction';
  return 'payment';
}

/** An issuer's fee terms by `service|currency` (no row: no fee). */
export async function feeTermsOf(db: Db | Tx, issuerIds: string[]): Promise<Map<string, FeeTerms>> {
  if (issuerIds.length === 0) return new Map();
  const found = await db.select().from(issuerFees).where(inArray(issuerFees.issuerId, issuerIds));
  return new Map(
    found.map((f) => [
      `${f.issuerId}|${f.service}|${f.currency}`,
      { percentBasisPoints: f.percentBasisPoints, fixedMinor: f.fixedMinor },
    ]),
  );
}

export const NO_FEE: FeeTerms = { percentBasisPoints: 0, fixedMinor: 0 };

/**
 * The fee of one settlement row (docs/MONEY.md "Fees"): a payout pays the percentage and the fixed
 * fee; a passed-on payment of a service we do not finance pays the percentage, plus the fixed fee the
 * first time the invoice is settled; a charge back, a deduction charged to the issuer, and a payment
 * passed on after a charge back pay nothing.
 */
export function rowFee(
  kind: SettlementRowKind,
  grossMinor: number,
  service: string,
  terms: FeeTerms,
  firstForInvoice: boolean,
): number {
  if (kind === 'chargeBack' || kind === 'deduction') return 0;
  if (kind === 'payout' || kind === 'planPayout') return feeFor(grossMinor, terms, true);
  if (isFinanced(service)) return 0;
  return feeFor(grossMinor, terms, firstForInvoice);
}

export function localeOf(country: 'SE' | 'FI'): Locale {
  return country === 'FI' ? 'fi-FI' : 'sv-SE';
}

/**
 * A payout run (docs/MONEY.md "Payout runs and settlements"): every issuer_payable posting no
 * settlement has taken yet becomes a row of its issuer's settlement in its currency, with the fee of
 * the issuer's terms. The settlement writes one journal (per row Dr issuer_payable gross / Cr
 * fee_income fee; Cr bank the settlement's total, the money that actually leaves), the taken postings
 * are stamped with the settlement, every invoice gets its event 5 or 11, and the issuer a message.
 * An issuer and currency whose total would be negative (charge backs exceeding payouts) is not
 * settled: nothing is written for it, its postings stay open and the next run sets the debt off
 * against new payouts; a total of zero is settled (a complete set-off, nothing paid). An issuer
 * without a verified bank account is held (`held`, `bank_account_unverified`): nothing is written for
 * it either, and the first run after it verifies its account pays what waited; a settlement records
 * the verified account it paid to.
 *
 * Each issuer is settled in its own transaction under an advisory lock of its own (issue #10): one
 * issuer's failure (say an amount out of range written before the bounds) rolls back that issuer
 * alone, is reported in `failed` with its code, and the others are paid. Two runs at once never pay
 * twice: the second takes each issuer's lock after the first and finds its postings settled. The
 * caller records each issuer's part in its transaction (`record`) and the whole run, with the
 * failures, once every issuer is done (`recordRun`).
 */
export async function runPayout(db: Db, opts: PayoutOptions): Promise<PayoutRun> {
  const batchId = randomUUID();
  const run: PayoutRun = { batchId, settlements: [], carried: [], held: [], failed: [] };
  const issuerIds = rows<{ issuer_id: string }>(
    await db.execute(sql`
      select distinct issuer_id from postings
      where account = 'issuer_payable' and settlement_id is null and claim_id is null
      order by issuer_id`),
  ).map((r) => r.issuer_id);
  for (const issuerId of issuerIds) {
    try {
      const part = await db.transaction(async (tx) => {
        const done = { batchId, ...(await payoutOfIssuer(tx, batchId, issuerId, opts)), failed: [] };
        if (done.settlements.length + done.carried.length + done.held.length > 0)
          await opts.record?.(tx, done);
        return done;
      });
      run.settlements.push(...part.settlements);
      run.carried.push(...part.carried);
      run.held.push(...part.held);
    } catch (error) {
      run.failed.push(failureOf(issuerId, error));
    }
  }
  const { recordRun } = opts;
  if (recordRun) await db.transaction((tx) => recordRun(tx, run));
  return run;
}

export interface HeldIssuer {
  issuerId: string;
  issuerName: string;
  currency: string;
  rowCount: number;
  /** What we owe the issuer before fees: its open issuer_payable postings. */
  grossMinor: number;
  reason: PayoutHoldReason;
}

/**
 * The issuers whose payouts a run would hold now (docs/MONEY.md "Payout holds"), for the back office:
 * per issuer and currency with open issuer_payable postings, those without a verified bank account.
 */
export async function listHeldPayouts(db: Db): Promise<HeldIssuer[]> {
  const open = rows<{ issuer_id: string; name: string; currency: string; n: number; total: string }>(
    await db.execute(sql`
      select p.issuer_id, iss.name, p.currency, count(*)::int as n, sum(p.amount_minor)::text as total
      from postings p
      join issuers iss on iss.id = p.issuer_id
      where p.account = 'issuer_payable' and p.settlement_id is null and p.claim_id is null
      group by p.issuer_id, iss.name, p.currency
      order by iss.name, p.issuer_id, p.currency`),
  );
  const accounts = await payoutAccountsOf(db, [...new Set(open.map((r) => r.issuer_id))]);
  return open
    .filter((r) => !accounts.has(r.issuer_id))
    .map((r) => ({
      issuerId: r.issuer_id,
      issuerName: r.name,
      currency: r.currency,
      rowCount: Number(r.n),
      grossMinor: -minorOf(r.total),
      reason: 'bank_account_unverified' as const,
    }));
}

/**
 * Takes the issuer's payout lock (any payout run, or a debt claim, of the issuer waits for it) for the
 * rest of the transaction.
 */
export async function lockIssuerPayouts(tx: Tx, issuerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK_ID}::int, hashtext(${issuerId}))`);
}

/** One open issuer_payable posting as the row it becomes, with its fee and net. */
export interface OpenLine {
  p: Unsettled;
  kind: SettlementRowKind;
  position: number;
  grossMinor: number;
  feeMinor: number;
  netMinor: number;
}

/**
 * The issuer's open issuer_payable postings (no settlement or debt claim took them), read under its
 * payout lock, as the rows a settlement (or a debt claim) makes of them per currency, with the fees of
 * the issuer's terms (docs/MONEY.md "Fees").
 */
export async function openLinesOf(tx: Tx, issuerId: string): Promise<OpenLine[][]> {
  const open = rows<Unsettled>(
    await tx.execute(sql`
        select p.id, p.issuer_id, p.currency, p.invoice_id, p.plan_id, pl.state as plan_state,
               p.amount_minor::text as amount_minor, p.kind, p.payment_id, p.at,
               coalesce(i.service, ${PLAN_SERVICE}) as service,
               coalesce(i.invoice_number, pl.loan_number) as invoice_number, iss.country
        from postings p
        left join invoices i on i.id = p.invoice_id
        left join installment_plans pl on pl.id = p.plan_id
        join issuers iss on iss.id = p.issuer_id
        where p.account = 'issuer_payable' and p.settlement_id is null and p.claim_id is null
          and p.issuer_id = ${issuerId}
        order by p.currency, p.id`),
  );
  if (open.length === 0) return [];
  const issuerIds = [...new Set(open.map((p) => p.issuer_id))];
  const terms = await feeTermsOf(tx, issuerIds);
  const invoiceIds = [...new Set(open.flatMap((p) => (p.invoice_id ? [p.invoice_id] : [])))];
  const settledBefore = new Set(
    rows<{ invoice_id: string }>(
      await tx.execute(sql`
          select invoice_id from settlement_rows
          where kind in ('payout', 'payment')
            and invoice_id in ${inList(invoiceIds, 'uuid')}
          union
          select invoice_id from issuer_debt_claim_rows
          where kind in ('payout', 'payment')
            and invoice_id in ${inList(invoiceIds, 'uuid')}`),
    ).map((r) => r.invoice_id),
  );

  const groups = new Map<string, Unsettled[]>();
  for (const p of open) {
    const key = `${p.issuer_id}|${p.currency}`;
    const list = groups.get(key) ?? [];
    list.push(p);
    groups.set(key, list);
  }
  // An invoice's postings all fall in one group (one issuer, one currency), so marking it settled
  // here never changes the fee of another group's row, whether or not this group is settled.
  return [...groups.values()].map((group) =>
    group.map((p, position): OpenLine => {
      const kind = rowKindOf(p.kind);
      const grossMinor = -minorOf(p.amount_minor);
      const feeTerms = terms.get(`${p.issuer_id}|${p.service}|${p.currency}`) ?? NO_FEE;
      const firstForInvoice = p.invoice_id === null || !settledBefore.has(p.invoice_id);
      const feeMinor = rowFee(kind, grossMinor, p.service, feeTerms, firstForInvoice);
      if ((kind === 'payout' || kind === 'payment') && p.invoice_id) settledBefore.add(p.invoice_id);
      return { p, kind, position, grossMinor, feeMinor, netMinor: grossMinor - feeMinor };
    }),
  );
}

/**
 * The journal lines that settle open rows (a settlement's, or a debt claim's): per row its
 * issuer_payable posting closed (the gross) and its fee taken, each marked with `ref`.
 */
export function closingLines(
  lines: readonly OpenLine[],
  ref: { settlementId: string } | { claimId: string },
): PostingLine[] {
  return lines.flatMap((l) => [
    {
      account: 'issuer_payable',
      amountMinor: l.grossMinor,
      invoiceId: l.p.invoice_id,
      planId: l.p.plan_id,
      ...ref,
    },
    {
      account: 'fee_income',
      amountMinor: -l.feeMinor,
      invoiceId: l.p.invoice_id,
      planId: l.p.plan_id,
      ...ref,
    },
  ]);
}

async function payoutOfIssuer(
  tx: Tx,
  batchId: string,
  issuerId: string,
  opts: PayoutOptions,
): Promise<Pick<PayoutRun, 'settlements' | 'carried' | 'held'>> {
  await lockIssuerPayouts(tx, issuerId);
  const groups = await openLinesOf(tx, issuerId);
  if (groups.length === 0) return { settlements: [], carried: [], held: [] };
  // Read under the issuer's lock, in this transaction: the account every settlement below pays to.
  const payee = (await payoutAccountsOf(tx, [issuerId])).get(issuerId) ?? null;
  const made: PayoutSettlement[] = [];
  const carried: CarriedBalance[] = [];
  const held: HeldPayout[] = [];
  for (const lines of groups) {
    const first = (lines[0] as OpenLine).p;
    const group = lines.map((l) => l.p);
    const settlementId = randomUUID();
    const sum = (pick: (l: (typeof lines)[number]) => number) => sumMinor(lines.map(pick));
    const totals = { grossMinor: sum((l) => l.grossMinor), feeMinor: sum((l) => l.feeMinor) };
    const totalPayoutMinor = totals.grossMinor - totals.feeMinor;
    if (totalPayoutMinor < 0) {
      // The issuer owes us: no money moves and nothing is settled; the open postings (the charge
      // backs with the payouts they exceed) wait for the next run.
      carried.push({
        issuerId: first.issuer_id,
        currency: first.currency,
        rowCount: lines.length,
        totalMinor: totalPayoutMinor,
      });
      continue;
    }
    if (!payee) {
      // No verified account to pay to (issue #13): held like a debt, nothing written; the first run
      // after the issuer verifies its account pays it.
      held.push({
        issuerId: first.issuer_id,
        currency: first.currency,
        rowCount: lines.length,
        totalMinor: totalPayoutMinor,
        reason: 'bank_account_unverified',
      });
      continue;
    }
    const [created] = await tx
      .insert(settlements)
      .values({
        id: settlementId,
        issuerId: first.issuer_id,
        batchId,
        currency: first.currency,
        payoutDate: opts.payoutDate,
        grossMinor: totals.grossMinor,
        feeMinor: totals.feeMinor,
        totalPayoutMinor,
        rowCount: lines.length,
        operatorId: opts.operatorId,
        bankAccountId: payee.id,
        createdAt: opts.now,
      })
      .returning({ number: settlements.number });
    const number = created?.number ?? 0;
    const rowValues = lines.map((l) => ({
      settlementId,
      issuerId: first.issuer_id,
      invoiceId: l.p.invoice_id,
      planId: l.p.plan_id,
      kind: l.kind,
      paymentId: l.p.payment_id,
      position: l.position,
      grossMinor: l.grossMinor,
      feeMinor: l.feeMinor,
      netMinor: l.netMinor,
    }));
    for (let i = 0; i < rowValues.length; i += INSERT_CHUNK)
      await tx.insert(settlementRows).values(rowValues.slice(i, i + INSERT_CHUNK));
    // One journal: each row closes its issuer_payable posting and takes its fee; the bank pays the
    // total once, so a charge back is set off against the payouts and never booked as money received.
    const postingRows: PostingRow[] = journalRows({
      issuerId: first.issuer_id,
      currency: first.currency,
      kind: 'payout',
      at: opts.now,
      lines: [
        ...closingLines(lines, { settlementId }),
        { account: 'bank', amountMinor: -totalPayoutMinor, settlementId },
      ],
    });
    await insertPostingRows(tx, postingRows);
    await tx.execute(sql`
        update postings set settlement_id = ${settlementId}
        where id in ${inList(
          group.map((p) => p.id),
          'bigint',
        )}`);
    const detailsOf = (l: (typeof lines)[number]) => ({
      settlementNumber: number,
      grossMinor: l.grossMinor,
      feeMinor: l.feeMinor,
      netMinor: l.netMinor,
    });
    const events = lines.flatMap((l) =>
      l.p.invoice_id
        ? [
            {
              invoiceId: l.p.invoice_id,
              issuerId: first.issuer_id,
              event: l.kind === 'payout' ? INVOICE_EVENT.payout : INVOICE_EVENT.settlement,
              at: opts.now,
              details: detailsOf(l),
            },
          ]
        : [],
    );
    for (let i = 0; i < events.length; i += INSERT_CHUNK)
      await tx.insert(invoiceEvents).values(events.slice(i, i + INSERT_CHUNK));
    // A plan's payout is an event of the plan's timeline (docs/INSTALLMENTS.md).
    const planEvents = lines.flatMap((l) =>
      l.p.plan_id
        ? [
            {
              planId: l.p.plan_id,
              issuerId: first.issuer_id,
              event: PLAN_EVENT.paidOut,
              state: l.p.plan_state ?? 0,
              at: opts.now,
              details: detailsOf(l),
            },
          ]
        : [],
    );
    if (planEvents.length > 0) await tx.insert(installmentPlanEvents).values(planEvents);
    await tx.insert(messages).values({
      issuerId: first.issuer_id,
      ...noticeColumns(
        {
          code: 'settlement',
          params: {
            number,
            rows: lines.length,
            payoutDate: opts.payoutDate,
            amountMinor: totalPayoutMinor,
            currency: first.currency as Currency,
          },
        },
        localeOf(first.country),
      ),
      invoiceId: null,
      invoiceNumber: null,
      date: opts.now,
      read: false,
    });
    made.push({
      settlementId,
      number,
      issuerId: first.issuer_id,
      currency: first.currency,
      rowCount: lines.length,
      grossMinor: totals.grossMinor,
      feeMinor: totals.feeMinor,
      totalPayoutMinor,
      paidTo: payee.masked,
    });
  }
  return { settlements: made, carried, held };
}
