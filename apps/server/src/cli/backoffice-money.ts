import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  assignPaymentResponseSchema,
  buildPath,
  checkBooksResponseSchema,
  claimIssuerDebtsResponseSchema,
  DEBT_CLAIM_DAYS_RANGE,
  decideInstallmentPlanResponseSchema,
  importPaymentsResponseSchema,
  isIsoDate,
  issuerFeesResponseSchema,
  listDeductionsResponseSchema,
  listHeldPayoutsResponseSchema,
  listIssuerDebtClaimsResponseSchema,
  listUnmatchedResponseSchema,
  ROUTES,
  resolveDeductionResponseSchema,
  runDailyResponseSchema,
  runPayoutResponseSchema,
  SERVICE_TYPES,
} from '@portal/contracts';
import { toCurrency, toDecimalString } from '@portal/domain/money';
import { CliError, type CliIo, call, EXIT, pageOptions, refusal } from './backoffice-http';

/** The money commands of the back-office CLI (docs/BACKOFFICE.md, docs/MONEY.md). */
interface MoneyCommand {
  /** Refuses bad arguments before anything is sent (exit 2). */
  check(rest: string[], values: Record<string, string | boolean | undefined>): void;
  run(c: {
    base: string;
    token: string;
    rest: string[];
    values: Record<string, string | boolean | undefined>;
    io: CliIo;
  }): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function usage(message: string): never {
  throw new CliError(message, EXIT.usage);
}

const noArgs = (name: string) => (rest: string[]) => {
  if (rest.length > 0) usage(`${name} takes no arguments`);
};
const optionalDate = (name: string) => (rest: string[], values: Record<string, unknown>) => {
  noArgs(name)(rest);
  if (values.date !== undefined && !isIsoDate(String(values.date)))
    usage('--date must be a real date YYYY-MM-DD (1900-2199)');
};

/** "1 reminder", "2 reminders": the CLI speaks English, and a count of one is singular. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const money = (minor: number, currency: string) =>
  `${toDecimalString(minor, toCurrency(currency))} ${currency}`;

/** After a page of a longer list: how many of how many it showed. */
function outShownOf(io: CliIo, list: { items: unknown[]; total: number }) {
  if (list.total > list.items.length) io.out(`\n${list.items.length} of ${list.total}.`);
}

async function send(base: string, method: string, path: string, token: string, body?: unknown) {
  const res = await call(base, method, path, token, body);
  if (res.status !== 200) throw refusal(res.status, res.json);
  return res.json;
}

export const MONEY_COMMANDS: Record<string, MoneyCommand> = {
  'plan-decision': {
    check(rest) {
      if (rest.length !== 2 || !UUID.test(rest[0] ?? '') || !['approved', 'rejected'].includes(rest[1] ?? ''))
        usage('plan-decision needs a plan id (a UUID) and approved or rejected');
    },
    async run({ base, token, rest, io }) {
      const [id = '', decision] = rest;
      const done = decideInstallmentPlanResponseSchema.parse(
        await send(base, 'POST', buildPath(ROUTES.decideInstallmentPlan.path, { id }), token, { decision }),
      );
      io.out(
        decision === 'approved'
          ? `Installment plan ${done.installmentPlanID} approved; it is now in state ${done.state} and the next payout run pays its financed amount.`
          : `Installment plan ${done.installmentPlanID} rejected; it is now in state ${done.state}.`,
      );
      return EXIT.ok;
    },
  },
  payout: {
    check: optionalDate('payout'),
    async run({ base, token, values, io }) {
      const run = runPayoutResponseSchema.parse(
        await send(
          base,
          'POST',
          ROUTES.runPayout.path,
          token,
          values.date ? { payoutDate: values.date } : {},
        ),
      );
      if (run.settlements.length === 0) io.out('Nothing to pay out.');
      for (const s of run.settlements)
        io.out(
          `Settlement ${s.number}\tissuer ${s.issuerID}\t${s.rowCount} rows\tgross ${money(s.grossMinor, s.currency)}\tfees ${money(s.feeMinor, s.currency)}\tpayout ${money(s.totalPayoutMinor, s.currency)}\tto ${s.paidTo}`,
        );
      for (const c of run.carried)
        io.out(
          `Not settled\tissuer ${c.issuerID}\t${c.rowCount} rows\tcharge backs exceed payouts, the issuer owes ${money(-c.totalMinor, c.currency)}: set off in a later run`,
        );
      for (const h of run.held)
        io.out(
          `Held\tissuer ${h.issuerID}\t${h.rowCount} rows\t${money(h.totalMinor, h.currency)}\t${h.reason}: no verified bank account, paid by the first run after the issuer verifies one`,
        );
      // The other issuers were paid; the failed ones wait for the next run (and the operator).
      for (const f of run.failed)
        io.err(
          `Failed\tissuer ${f.issuerID}\t${f.code}: nothing written for this issuer, see the server log`,
        );
      return run.failed.length > 0 ? EXIT.refused : EXIT.ok;
    },
  },
  'import-bgmax': {
    check(rest) {
      if (rest.length !== 1) usage('import-bgmax needs exactly one file');
    },
    async run({ base, token, rest, io }) {
      const path = rest[0] ?? '';
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        throw new CliError(`cannot read ${path}: ${(error as Error).message}`, EXIT.usage);
      }
      const res = await call(
        base,
        'POST',
        `${ROUTES.importPayments.path}?filename=${encodeURIComponent(basename(path))}`,
        token,
        new Uint8Array(bytes),
      );
      if (res.status !== 200) {
        const details = (res.json as { details?: { line?: number; rule?: string } }).details;
        if (details?.line) io.err(`the file was refused at line ${details.line}: ${details.rule}`);
        throw refusal(res.status, res.json);
      }
      const r = importPaymentsResponseSchema.parse(res.json);
      io.out(
        r.duplicateFile
          ? `This file was imported before (${r.payments} payments); nothing was registered again.`
          : `${r.payments} payments read, ${r.registered} registered: ${r.matched} matched, ${r.unmatched} unmatched, ${r.overpayments} overpaid${r.deductions > 0 ? `; ${r.deductions} deductions (TK21, TK23) booked off the deposits` : ''}${r.information > 0 ? `; ${r.information} zero amounts kept as information (unmatched --information)` : ''}.`,
      );
      return EXIT.ok;
    },
  },
  unmatched: {
    check: noArgs('unmatched'),
    async run({ base, token, values, io }) {
      const { page, pageSize } = pageOptions(values);
      const status = values.information ? 'information' : 'unmatched';
      const list = listUnmatchedResponseSchema.parse(
        await send(
          base,
          'GET',
          `${ROUTES.listUnmatchedPayments.path}?page=${page}&pageSize=${pageSize}&status=${status}`,
          token,
        ),
      );
      if (list.items.length === 0)
        io.out(status === 'information' ? 'No zero amounts kept as information.' : 'No unmatched payments.');
      for (const p of list.items)
        io.out(
          `${p.paymentID}\t${p.paymentDate}\tbankgiro ${p.receivingBankgiro}\t${money(p.amountMinor, p.currency)}\t"${p.reference}"\t${p.payerName}${p.part === null ? '' : `\tpart ${p.part} of BGC ${p.bgcSerial}`}`,
        );
      outShownOf(io, list);
      return EXIT.ok;
    },
  },
  assign: {
    check(rest) {
      if (rest.length !== 2 || !rest.every((id) => UUID.test(id)))
        usage('assign needs a payment id and an invoice id (UUIDs)');
    },
    async run({ base, token, rest, io }) {
      const done = assignPaymentResponseSchema.parse(
        await send(base, 'POST', buildPath(ROUTES.assignPayment.path, { id: rest[0] ?? '' }), token, {
          invoiceID: rest[1],
        }),
      );
      io.out(
        `Payment ${done.paymentID} assigned to invoice ${done.invoiceID}: applied ${done.appliedMinor}, overpaid ${done.overpaidMinor} (minor units); the invoice is in state ${done.state}.`,
      );
      return EXIT.ok;
    },
  },
  deductions: {
    check: noArgs('deductions'),
    async run({ base, token, values, io }) {
      const { page, pageSize } = pageOptions(values);
      const list = listDeductionsResponseSchema.parse(
        await send(base, 'GET', `${ROUTES.listDeductions.path}?page=${page}&pageSize=${pageSize}`, token),
      );
      if (list.items.length === 0) io.out('No open deductions.');
      for (const d of list.items)
        io.out(
          `${d.paymentID}	${d.paymentDate}	${d.issuerName ?? `no issuer (bankgiro ${d.receivingBankgiro})`}	${money(d.amountMinor, d.currency)}	"${d.reference}"	${d.payerName}`,
        );
      outShownOf(io, list);
      return EXIT.ok;
    },
  },
  'resolve-deduction': {
    check(rest) {
      const [id, action, invoice] = rest;
      const charge = action === 'charge-issuer' && rest.length === 2;
      const settle = action === 'settle-invoice' && rest.length === 3 && UUID.test(invoice ?? '');
      if (!UUID.test(id ?? '') || !(charge || settle))
        usage('resolve-deduction needs <paymentId> charge-issuer, or <paymentId> settle-invoice <invoiceId>');
    },
    async run({ base, token, rest, io }) {
      const [id = '', action, invoiceID] = rest;
      const body =
        action === 'charge-issuer' ? { action: 'chargeIssuer' } : { action: 'settleInvoice', invoiceID };
      const done = resolveDeductionResponseSchema.parse(
        await send(base, 'POST', buildPath(ROUTES.resolveDeduction.path, { id }), token, body),
      );
      io.out(
        done.action === 'chargeIssuer'
          ? `Deduction ${done.paymentID} of ${money(done.amountMinor, done.currency)} charged to issuer ${done.issuerID}: its next payout run sets it off.`
          : `Deduction ${done.paymentID} of ${money(done.amountMinor, done.currency)} settled against invoice ${done.invoiceID}: ${money(done.remainingMinor ?? 0, done.currency)} left to pay, state ${done.invoiceState}.`,
      );
      return EXIT.ok;
    },
  },
  daily: {
    check: optionalDate('daily'),
    async run({ base, token, values, io }) {
      const r = runDailyResponseSchema.parse(
        await send(base, 'POST', ROUTES.runDailyJob.path, token, values.date ? { date: values.date } : {}),
      );
      if (r.alreadyRunning) {
        io.err('The daily job is already running on another server.');
        return EXIT.refused;
      }
      io.out(
        `Daily job for ${r.date}: ${r.distributed} distributed, ${r.overdue} overdue, ${r.reminder1} reminder 1, ${r.reminder2} reminder 2, ${r.collection} to collection, ${r.interestItems} interest items, ${r.chargedBack} charged back, ${r.debtClaims} debts claimed, ${r.claimReminders} claim reminders.`,
      );
      if (r.failed.length > 0) io.err(`Failed and left as they were: ${r.failed.join(', ')}`);
      return r.failed.length > 0 ? EXIT.refused : EXIT.ok;
    },
  },
  held: {
    check: noArgs('held'),
    async run({ base, token, io }) {
      const r = listHeldPayoutsResponseSchema.parse(
        await send(base, 'GET', ROUTES.listHeldPayouts.path, token),
      );
      if (r.items.length === 0) io.out('No payouts held.');
      for (const h of r.items)
        io.out(
          `Held\tissuer ${h.issuerID}\t${h.issuerName}\t${h.rowCount} rows\tgross ${money(h.grossMinor, h.currency)}\t${h.reason}`,
        );
      return EXIT.ok;
    },
  },
  'check-books': {
    check: noArgs('check-books'),
    async run({ base, token, io }) {
      const r = checkBooksResponseSchema.parse(await send(base, 'GET', ROUTES.checkBooks.path, token));
      if (r.violations.length === 0) {
        io.out('The book is sound: every journal balances, every invoice and settlement adds up.');
        return EXIT.ok;
      }
      for (const v of r.violations) io.err(`${v.rule}\t${v.id}\t${v.detail}`);
      return EXIT.refused;
    },
  },
  fees: {
    check(rest) {
      if (rest.length !== 1 || !UUID.test(rest[0] ?? '')) usage('fees needs one issuer id (a UUID)');
    },
    async run({ base, token, rest, io }) {
      const r = issuerFeesResponseSchema.parse(
        await send(base, 'GET', buildPath(ROUTES.getIssuerFees.path, { id: rest[0] ?? '' }), token),
      );
      io.out(`Debt claimed after ${r.debtClaimDays} days without payouts to set it off.`);
      if (r.fees.length === 0) io.out('No fees: payouts are not charged.');
      for (const f of r.fees)
        io.out(
          `${f.service}\t${f.currency}\t${(f.percentBasisPoints / 100).toFixed(2)} %\t+ ${money(f.fixedMinor, f.currency)}`,
        );
      return EXIT.ok;
    },
  },
  claims: {
    check(rest, values) {
      noArgs('claims')(rest);
      if (values.state !== undefined && values.state !== 'open' && values.state !== 'paid')
        usage('--state must be open or paid');
    },
    async run({ base, token, values, io }) {
      const query = values.state ? `?state=${values.state}` : '';
      const r = listIssuerDebtClaimsResponseSchema.parse(
        await send(base, 'GET', `${ROUTES.listIssuerDebtClaims.path}${query}`, token),
      );
      if (r.items.length === 0) io.out('No debt claims.');
      for (const c of r.items)
        io.out(
          `Claim ${c.number}	${c.state}	issuer ${c.issuerID}	${c.issuerName}	${money(c.amountMinor, c.currency)}	paid ${money(c.paidMinor, c.currency)}	left ${money(c.remainingMinor, c.currency)}	OCR ${c.ocr}	due ${c.dueDate}	${counted(c.remindersSent, 'reminder')}`,
        );
      return EXIT.ok;
    },
  },
  'claim-debts': {
    check(rest, values) {
      optionalDate('claim-debts')(rest, values);
      if (values.issuer !== undefined && !UUID.test(String(values.issuer)))
        usage('--issuer must be an issuer id (a UUID)');
    },
    async run({ base, token, values, io }) {
      const body = {
        ...(values.issuer ? { issuerID: values.issuer } : {}),
        ...(values.date ? { date: values.date } : {}),
      };
      const r = claimIssuerDebtsResponseSchema.parse(
        await send(base, 'POST', ROUTES.claimIssuerDebts.path, token, body),
      );
      if (r.claims.length === 0) io.out('No debt to claim.');
      for (const c of r.claims)
        io.out(
          `Claim ${c.number}	issuer ${c.issuerID}	${c.rowCount} rows	${money(c.amountMinor, c.currency)}	OCR ${c.ocr}	due ${c.dueDate}`,
        );
      if (r.reminders > 0) io.out(`${counted(r.reminders, 'reminder')} sent.`);
      for (const f of r.failed)
        io.err(
          `Failed	issuer ${f.issuerID}	${f.code}: nothing written for this issuer, see the server log`,
        );
      return r.failed.length > 0 ? EXIT.refused : EXIT.ok;
    },
  },
  'claim-days': {
    check(rest, values) {
      if (rest.length !== 1 || !UUID.test(rest[0] ?? '')) usage('claim-days needs one issuer id (a UUID)');
      const days = Number(values.days);
      if (!Number.isInteger(days) || days < DEBT_CLAIM_DAYS_RANGE.min || days > DEBT_CLAIM_DAYS_RANGE.max)
        usage(`--days must be a whole number ${DEBT_CLAIM_DAYS_RANGE.min}-${DEBT_CLAIM_DAYS_RANGE.max}`);
    },
    async run({ base, token, rest, values, io }) {
      const issuer = rest[0] ?? '';
      const path = buildPath(ROUTES.getIssuerFees.path, { id: issuer });
      const current = issuerFeesResponseSchema.parse(await send(base, 'GET', path, token));
      issuerFeesResponseSchema.parse(
        await send(base, 'PUT', path, token, { fees: current.fees, debtClaimDays: Number(values.days) }),
      );
      io.out(`Issuer ${issuer}: a debt is claimed after ${values.days} days.`);
      return EXIT.ok;
    },
  },
  'set-fee': {
    check(rest, values) {
      const [issuer, service, currency] = rest;
      if (rest.length !== 3 || !UUID.test(issuer ?? ''))
        usage('set-fee needs <issuerId> <service> <currency>');
      if (!(SERVICE_TYPES as readonly string[]).includes(service ?? ''))
        usage(`unknown service "${service}"`);
      if (currency !== 'SEK' && currency !== 'EUR') usage('currency must be SEK or EUR');
      for (const name of ['percent-bp', 'fixed-minor']) {
        const v = Number(values[name]);
        if (values[name] === undefined || !Number.isInteger(v) || v < 0)
          usage(`--${name} must be a whole number ≥ 0`);
      }
    },
    async run({ base, token, rest, values, io }) {
      const [issuer = '', service, currency] = rest;
      const path = buildPath(ROUTES.getIssuerFees.path, { id: issuer });
      const current = issuerFeesResponseSchema.parse(await send(base, 'GET', path, token));
      const fees = [
        ...current.fees.filter((f) => !(f.service === service && f.currency === currency)),
        {
          service,
          currency,
          percentBasisPoints: Number(values['percent-bp']),
          fixedMinor: Number(values['fixed-minor']),
        },
      ];
      issuerFeesResponseSchema.parse(await send(base, 'PUT', path, token, { fees }));
      io.out(`Fee of ${service} in ${currency} set for issuer ${issuer}.`);
      return EXIT.ok;
    },
  },
};
