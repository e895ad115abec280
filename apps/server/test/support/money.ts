import { feeFor } from '@portal/domain/money-flow';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { invoices, issuerFees, issuers, payments, recipients, users } from '../../src/db/schema';
import { DEMO_BANKGIROS } from '../../src/db/seed/demo';
import { todayIn } from '../../src/lib/today';
import { decideCredit } from '../../src/modules/invoices/invoices.service';
import { type IncomingPayment, incomingPaymentsFile, runPayout } from '../../src/modules/money/money.service';
import { verifyAccount } from './bank-verification';
import { VALID_RECIPIENT_BODY } from './route-samples';
import { bearer, type TestApp } from './test-app';

export const TEST_OPERATOR = {
  sessionId: 'test',
  operatorId: '00000000-0000-4000-8000-000000000001',
  username: 'operator',
  name: 'Olle Operatör',
};

let counter = 0;

/**
 * Registers `n` invoices as the demo user through the API and sends them: financed services end in
 * state 9 (awaiting our decision), others in 6 (queued). With `approve`, the back office's credit
 * decision approves the financed ones. Returns the invoice rows as they are then.
 */
export async function sentInvoices(
  t: TestApp,
  opts: {
    n: number;
    service?: string;
    currency?: 'SEK' | 'EUR';
    invoiceDate?: string;
    dueDate?: string;
    approve?: boolean;
    username?: string;
  },
) {
  const token = await t.login(opts.username ?? 'demo');
  const [user] = await t.db
    .select()
    .from(users)
    .where(eq(users.username, opts.username ?? 'demo'));
  const [recipient] = await t.db
    .select()
    .from(recipients)
    .where(eq(recipients.issuerId, user?.issuerId ?? ''))
    .limit(1);
  const ids: string[] = [];
  for (let i = 0; i < opts.n; i++) {
    counter++;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(token),
      payload: {
        recipientID: recipient?.id,
        invoiceNumber: `T${Date.now() % 1_000_000}-${counter}`,
        service: opts.service ?? 'factoring',
        currency: opts.currency ?? 'SEK',
        invoiceDate: opts.invoiceDate ?? '2026-03-02',
        dueDate: opts.dueDate ?? '2026-04-01',
        rows: [
          {
            name: 'Arbetstimme',
            quantityMilli: 8000 + i * 500,
            unit: 'h',
            unitPriceMinor: 65_000,
            vatBasisPoints: 2500,
          },
        ],
      },
    });
    if (res.statusCode !== 200 && res.statusCode !== 201)
      throw new Error(`register: ${res.statusCode} ${res.body}`);
    ids.push((res.json() as { invoiceID: string }).invoiceID);
  }
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/limited/invoices/send',
    headers: bearer(token),
    payload: { invoiceIDs: ids },
  });
  if (sent.statusCode !== 200) throw new Error(`send: ${sent.statusCode} ${sent.body}`);
  if (opts.approve) {
    const waiting = await t.db.select().from(invoices).where(inArray(invoices.id, ids));
    for (const w of waiting)
      if (w.state === 9)
        await decideCredit(t.db, TEST_OPERATOR, w.id, { decision: 'approved' }, t.clock.now(), '127.0.0.1');
  }
  const rows = await t.db.select().from(invoices).where(inArray(invoices.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id) as (typeof rows)[number]);
}

/**
 * Nystart Måleri AB (user `demo-unverified`, bankgiro `DEMO_BANKGIROS.unverified`), a demo issuer with
 * no money history, given a recipient and (unless `verified` is false) its verified bank account at
 * the sandbox provider, so its payouts are not held: its settlements hold exactly what a test makes,
 * where Demo Bygg's also hold what the demo's 14 months left open. `invoicesOf` registers and sends factoring
 * invoices in SEK (approved unless told otherwise); `netOf` is what a payout row of an amount pays
 * after the issuer's factoring fee.
 */
export async function freshIssuer(t: TestApp, opts: { verified?: boolean } = {}) {
  const [issuer] = await t.db.select().from(issuers).where(eq(issuers.name, 'Nystart Måleri AB'));
  if (!issuer) throw new Error('no Nystart Måleri AB');
  const token = await t.login('demo-unverified');
  if (opts.verified !== false) {
    const verified = await verifyAccount(t, token, 'se-norrbanken', 'nb-nystart');
    if (verified.status !== 'verified') throw new Error(`verification: ${JSON.stringify(verified.body)}`);
  }
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/limited/recipients',
    headers: bearer(token),
    payload: VALID_RECIPIENT_BODY,
  });
  if (res.statusCode >= 300) throw new Error(`recipient: ${res.statusCode} ${res.body}`);
  const [terms] = await t.db
    .select()
    .from(issuerFees)
    .where(
      and(
        eq(issuerFees.issuerId, issuer.id),
        eq(issuerFees.service, 'factoring'),
        eq(issuerFees.currency, 'SEK'),
      ),
    );
  if (!terms) throw new Error('no factoring fees');
  const invoicesOf = (n: number, dueDate: string, approve = true) =>
    sentInvoices(t, { n, service: 'factoring', dueDate, approve, username: 'demo-unverified' });
  const netOf = (grossMinor: number) => grossMinor - feeFor(grossMinor, terms, true);
  return { issuer, username: 'demo-unverified', invoicesOf, netOf };
}

/** The day of the app's clock in Stockholm. */
export const todayOf = (t: TestApp): string => todayIn(t.clock.now());

/**
 * The payments of three invoices, the first paid in full by `payerName`, the second in part (100,00)
 * and the third over (50,00 more), and a payment of 12,34 whose reference matches nothing.
 */
export function fullPartOverPayments(
  [full, part, over]: readonly { ocr: string | null; toPayMinor: number }[],
  payerName: string,
): IncomingPayment[] {
  if (!full || !part || !over) throw new Error('three invoices');
  return [
    { reference: full.ocr ?? '', amountMinor: full.toPayMinor, name: payerName },
    { reference: part.ocr ?? '', amountMinor: 10_000 },
    { reference: over.ocr ?? '', amountMinor: over.toPayMinor + 5_000 },
    { reference: '99999999999', amountMinor: 1_234 },
  ];
}

/**
 * A BGMAX file with one deposit of `payments` into Demo Bygg's bankgiro, paid on the app's today;
 * `more` may set another day, the serial numbers, or add deposits to other bankgiros after it.
 */
export function paidToBygg(
  t: TestApp,
  payments: readonly IncomingPayment[],
  more: Partial<Parameters<typeof incomingPaymentsFile>[0]> = {},
): Uint8Array {
  const { deposits = [], ...rest } = more;
  return incomingPaymentsFile({
    paymentDate: todayOf(t),
    ...rest,
    deposits: [{ bankgiro: DEMO_BANKGIROS.bygg, payments }, ...deposits],
  });
}

/** A payout run on the app's today (or on `payoutDate`) at the app's clock, by no operator, as the daily job runs it. */
export const payoutOn = (t: TestApp, payoutDate = todayOf(t)) =>
  runPayout(t.db, { payoutDate, now: t.clock.now(), operatorId: null });

/** The id of the one BGMAX deduction (TK21) an imported file registered. */
export async function deductionOfFile(db: Db, fileId: string): Promise<string> {
  const [found] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.fileId, fileId), eq(payments.status, 'deduction')));
  if (!found) throw new Error('the file registered no deduction');
  return found.id;
}
