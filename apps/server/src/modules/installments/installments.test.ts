// Over 500 lines on purpose: a plan's life end to end through the API (register, sign on the sandbox,
// decide, pay out, the daily job, BGMAX payments, completion, notice and recall), the books checked
// after each step; replacement is apart in plan-replacement.test.ts.
import {
  INVOICE_STATE,
  installmentPlanDetailSchema,
  listInstallmentPlansResponseSchema,
  PLAN_EVENT,
  PLAN_STATE,
  runDailyResponseSchema,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { isLuhnValid } from '@portal/domain/luhn';
import { formatAmount } from '@portal/domain/money';
import { eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  deliverSigningCallback,
  registerPlanBuyer,
  signInstallmentPlan,
} from '../../../test/support/installment-plans';
import { freshIssuer, paidToBygg } from '../../../test/support/money';
import { pdfText } from '../../../test/support/pdf-text';
import { whileRefusing } from '../../../test/support/refuse-writes';
import { VALID_PLAN_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import {
  installmentPlanParties,
  installmentPlanRows,
  installmentPlans,
  invoiceDocuments,
  issuerFees,
  settlementRows,
} from '../../db/schema';
import { todayIn } from '../../lib/today';
import { checkBooks, PLAN_SERVICE, runPayout } from '../money/money.service';
import { FINAL_NOTICE_DAYS, INSTALLMENT_INVOICE_DAYS } from './installments.service';

/**
 * Installment plans through the API (issue #14, docs/INSTALLMENTS.md): register (idempotent), list,
 * change, the rules of spec §5, sending the agreement for signing with the real e-signing client
 * against its sandbox, the signee signing on the sandbox's page, the provider's callback, the sealed
 * agreement, our credit decision, the payout and the books; cancelling and refusing; moves the state
 * table forbids.
 */

const t = useTestApp({ resetEach: true });

type Call = { status: number; body: unknown; raw: Buffer; disposition: string | undefined };

async function call(
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Call> {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...bearer(token), ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  const json = res.headers['content-type']?.toString().includes('json') ? res.json() : null;
  const disposition = res.headers['content-disposition']?.toString();
  return { status: res.statusCode, body: json, raw: res.rawPayload, disposition };
}

async function buyerOf(username: string): Promise<string> {
  return registerPlanBuyer(t, await t.login(username));
}

async function registered(username = 'demo', terms: Partial<typeof VALID_PLAN_BODY> = {}) {
  const token = await t.login(username);
  const recipientID = await buyerOf(username);
  const res = await call(token, 'POST', '/api/limited/installmentplans', {
    ...VALID_PLAN_BODY,
    ...terms,
    recipientID,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token, recipientID, plan: installmentPlanDetailSchema.parse(res.body) };
}

/** The signee signs on the sandbox's page and the provider's callback reaches us. */
const signAll = (plan: { installmentPlanID: string }) => signInstallmentPlan(t, plan.installmentPlanID);

async function firstSignee(planId: string) {
  const [party] = await t.db
    .select()
    .from(installmentPlanParties)
    .where(eq(installmentPlanParties.planId, planId));
  if (!party?.signingLink) throw new Error('no signing link');
  return { signingLink: party.signingLink };
}

const deliverCallback = (documentId: string, token?: string) => deliverSigningCallback(t, documentId, token);

describe('registering and changing a plan', () => {
  it('registers once per key, with a loan number, the schedule to the öre and its event; lists and finds it', async () => {
    const token = await t.login('demo');
    const recipientID = await buyerOf('demo');
    const body = { ...VALID_PLAN_BODY, recipientID };
    const headers = { 'idempotency-key': 'plan-form-0001' };
    const first = await call(token, 'POST', '/api/limited/installmentplans', body, headers);
    const again = await call(token, 'POST', '/api/limited/installmentplans', body, headers);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const plan = installmentPlanDetailSchema.parse(first.body);
    expect(plan.state).toBe(PLAN_STATE.registered);
    expect(isLuhnValid(plan.loanNumber)).toBe(true);
    expect(plan.installments).toHaveLength(12);
    expect(plan.installments.reduce((s, r) => s + r.amountMinor, 0)).toBe(plan.total);
    expect(plan.total).toBe(3_600_000 + 49_500 + 12 * (2_900 + 3_900));
    expect(plan.installments[0]).toMatchObject({
      dueDate: '2027-01-01',
      initialFeeMinor: 49_500,
      invoiceID: null,
    });
    expect(plan.endDate).toBe('2027-12-01');
    expect(plan.remainingMinor).toBe(plan.total);
    expect(plan.signees).toEqual([
      expect.objectContaining({ name: 'Anna Andersson', signingStatus: 'pending' }),
    ]);
    expect(plan.events.map((e) => e.event)).toEqual([PLAN_EVENT.registered]);

    const listed = listInstallmentPlansResponseSchema.parse(
      (await call(token, 'GET', `/api/limited/installmentplans?search=${plan.loanNumber}`)).body,
    );
    expect(listed.items.map((p) => p.installmentPlanID)).toEqual([plan.installmentPlanID]);
    const byState = listInstallmentPlansResponseSchema.parse(
      (await call(token, 'GET', '/api/limited/installmentplans?state=2')).body,
    );
    expect(byState.items.some((p) => p.installmentPlanID === plan.installmentPlanID)).toBe(false);
    const byBuyer = listInstallmentPlansResponseSchema.parse(
      (await call(token, 'GET', '/api/limited/installmentplans?search=anna%20and&sort=total&order=asc')).body,
    );
    expect(byBuyer.total).toBe(1);
  });

  it('answers a broken rule with the field and code, an unknown buyer 404, and another issuer’s plan 404', async () => {
    const { token, recipientID, plan } = await registered();
    const bad = await call(token, 'POST', '/api/limited/installmentplans', {
      ...VALID_PLAN_BODY,
      recipientID,
      endDate: '2026-11-01',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'installmentPlans.invalid',
      issues: [{ path: 'endDate', code: 'installmentPlans.wrong_date_range' }],
    });
    const stranger = await call(token, 'POST', '/api/limited/installmentplans', {
      ...VALID_PLAN_BODY,
      recipientID: '00000000-0000-4000-8000-00000000abcd',
    });
    expect(stranger.status).toBe(404);
    const other = await t.login('demo-other');
    expect((await call(other, 'GET', `/api/limited/installmentplans/${plan.installmentPlanID}`)).status).toBe(
      404,
    );
    expect(
      (await call(other, 'POST', `/api/limited/installmentplans/${plan.installmentPlanID}/cancel`)).status,
    ).toBe(404);
  });

  it('changes a registered plan (new schedule, an edit event) and nothing once it is sent', async () => {
    const { token, recipientID, plan } = await registered();
    const url = `/api/limited/installmentplans/${plan.installmentPlanID}`;
    const changed = await call(token, 'PUT', url, { ...VALID_PLAN_BODY, recipientID, noOfInstallments: 24 });
    expect(changed.status).toBe(200);
    const after = installmentPlanDetailSchema.parse(changed.body);
    expect(after.installments).toHaveLength(24);
    expect(after.loanNumber).toBe(plan.loanNumber);
    expect(after.events.map((e) => e.event)).toEqual([PLAN_EVENT.registered, PLAN_EVENT.edited]);
    expect((await call(token, 'POST', `${url}/signing`)).status).toBe(200);
    const late = await call(token, 'PUT', url, { ...VALID_PLAN_BODY, recipientID });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'installmentPlans.invalid_transition' });
  });
});

describe('signing, our decision and the payout', () => {
  it('is signed on the provider’s page, stores the sealed agreement, is approved, paid out less the loans fee, and the books hold', async () => {
    const fresh = await freshIssuer(t);
    await t.db
      .insert(issuerFees)
      .values({
        issuerId: fresh.issuer.id,
        service: PLAN_SERVICE,
        currency: 'SEK',
        percentBasisPoints: 200,
        fixedMinor: 0,
      })
      .onConflictDoNothing();
    const { token, plan } = await registered(fresh.username);
    const url = `/api/limited/installmentplans/${plan.installmentPlanID}`;
    const sent = installmentPlanDetailSchema.parse((await call(token, 'POST', `${url}/signing`)).body);
    expect(sent.state).toBe(PLAN_STATE.sentForSigning);
    // The signee's own page at the provider, while it is the signee's turn.
    const { signingLink } = await firstSignee(plan.installmentPlanID);
    expect(signingLink.startsWith(t.eSigningSandbox?.url ?? 'no sandbox')).toBe(true);
    expect(sent.signees[0]?.signingLink).toBe(signingLink);
    // Before it is signed there is no agreement to download.
    expect((await call(token, 'GET', `${url}/agreement`)).status).toBe(404);

    // A callback whose token does not belong to the document changes nothing.
    const [row] = await t.db
      .select()
      .from(installmentPlans)
      .where(eq(installmentPlans.id, plan.installmentPlanID));
    expect((await deliverCallback(row?.signingDocumentId ?? '', 'forged')).statusCode).toBe(401);

    const callback = await signAll(plan);
    expect(callback.statusCode).toBe(200);
    const signed = installmentPlanDetailSchema.parse((await call(token, 'GET', url)).body);
    expect(signed.state).toBe(PLAN_STATE.signed);
    expect(signed.signees[0]).toMatchObject({ signingStatus: 'signed', signingLink: null });
    expect(signed.events.map((e) => e.event)).toEqual([
      PLAN_EVENT.registered,
      PLAN_EVENT.sentForSigning,
      PLAN_EVENT.signeeSigned,
      PLAN_EVENT.signed,
    ]);
    // The same callback again (the provider repeats them) changes nothing.
    expect((await deliverCallback(row?.signingDocumentId ?? '')).statusCode).toBe(200);
    expect(installmentPlanDetailSchema.parse((await call(token, 'GET', url)).body).events).toHaveLength(4);

    const agreement = await call(token, 'GET', `${url}/agreement`);
    expect(agreement.status).toBe(200);
    // Named the way every download of the portal is: the ASCII name and the RFC 6266 UTF-8 one.
    expect(agreement.disposition).toBe(
      `attachment; filename="agreement-${plan.loanNumber}.pdf"; filename*=UTF-8''agreement-${plan.loanNumber}.pdf`,
    );
    const read = await pdfText(new Uint8Array(agreement.raw));
    expect(read.text).toContain('Avbetalningsavtal');
    expect(read.text).toContain(plan.loanNumber);
    expect(read.text).toContain('Anna Andersson');

    const operator = await t.loginOperator();
    const decide = (decision: string) =>
      call(operator, 'POST', `/api/backoffice/installmentplans/${plan.installmentPlanID}/decision`, {
        decision,
      });
    const approved = await decide('approved');
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ installmentPlanID: plan.installmentPlanID, state: PLAN_STATE.active });
    expect((await decide('approved')).status).toBe(409);
    expect(await checkBooks(t.db, fresh.issuer.id)).toEqual([]);

    const run = await runPayout(t.db, {
      payoutDate: todayIn(t.clock.now()),
      now: t.clock.now(),
      operatorId: null,
    });
    const mine = run.settlements.find((s) => s.issuerId === fresh.issuer.id);
    expect(mine).toMatchObject({ grossMinor: 3_600_000, feeMinor: 72_000, totalPayoutMinor: 3_528_000 });
    const rows = await t.db
      .select()
      .from(settlementRows)
      .where(eq(settlementRows.planId, plan.installmentPlanID));
    expect(rows.map((r) => r.kind)).toEqual(['planPayout']);
    const active = installmentPlanDetailSchema.parse((await call(token, 'GET', url)).body);
    expect(active.events.map((e) => e.event).slice(-2)).toEqual([PLAN_EVENT.approved, PLAN_EVENT.paidOut]);
    expect(await checkBooks(t.db, fresh.issuer.id)).toEqual([]);
    // An active plan cannot be cancelled.
    expect((await call(token, 'POST', `${url}/cancel`)).status).toBe(409);
  });

  it('ends in agreement rejected when the signee refuses, and in cancelled when the customer withdraws it', async () => {
    const { token, plan } = await registered();
    const url = `/api/limited/installmentplans/${plan.installmentPlanID}`;
    await call(token, 'POST', `${url}/signing`);
    const { signingLink } = await firstSignee(plan.installmentPlanID);
    await fetch(signingLink, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'reject', reason: 'Fel belopp' }),
    });
    const [row] = await t.db
      .select()
      .from(installmentPlans)
      .where(eq(installmentPlans.id, plan.installmentPlanID));
    expect((await deliverCallback(row?.signingDocumentId ?? '')).statusCode).toBe(200);
    const refused = installmentPlanDetailSchema.parse((await call(token, 'GET', url)).body);
    expect(refused.state).toBe(PLAN_STATE.agreementRejected);
    expect(refused.signees[0]).toMatchObject({ signingStatus: 'refused' });

    const second = await registered();
    const url2 = `/api/limited/installmentplans/${second.plan.installmentPlanID}`;
    await call(second.token, 'POST', `${url2}/signing`);
    const cancelled = await call(second.token, 'POST', `${url2}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(installmentPlanDetailSchema.parse(cancelled.body)).toMatchObject({
      state: PLAN_STATE.cancelled,
      remainingMinor: 0,
    });
    // The provider's order was withdrawn too: signing the old link no longer signs anything.
    const [gone] = await t.db
      .select()
      .from(installmentPlans)
      .where(eq(installmentPlans.id, second.plan.installmentPlanID));
    expect((await deliverCallback(gone?.signingDocumentId ?? '')).statusCode).toBe(200);
    expect(installmentPlanDetailSchema.parse((await call(second.token, 'GET', url2)).body).state).toBe(
      PLAN_STATE.cancelled,
    );
  });
});

describe('the daily job collects a plan (docs/INSTALLMENTS.md "Money")', () => {
  /** A plan of the demo issuer, signed on the sandbox's page and approved in the back office. */
  async function approved(terms: Partial<typeof VALID_PLAN_BODY> = {}) {
    const { token, plan } = await registered('demo', { startDate: '2026-03-20', ...terms });
    const url = `/api/limited/installmentplans/${plan.installmentPlanID}`;
    expect((await call(token, 'POST', `${url}/signing`)).status).toBe(200);
    expect((await signAll(plan)).statusCode).toBe(200);
    const operator = await t.loginOperator();
    const decided = await call(
      operator,
      'POST',
      `/api/backoffice/installmentplans/${plan.installmentPlanID}/decision`,
      {
        decision: 'approved',
      },
    );
    expect(decided.status).toBe(200);
    // The app's clock moves on by months: each read logs in again.
    const detail = async () =>
      installmentPlanDetailSchema.parse((await call(await t.login('demo'), 'GET', url)).body);
    return { id: plan.installmentPlanID, issuerId: await issuerOf(plan.installmentPlanID), detail };
  }

  async function issuerOf(planId: string) {
    const [row] = await t.db.select().from(installmentPlans).where(eq(installmentPlans.id, planId));
    return row?.issuerId ?? '';
  }

  /** The back office runs the daily job on `date`, the app's clock set to that morning. */
  async function runDay(date: string) {
    t.clock.set(new Date(`${date}T05:00:00.000Z`));
    const res = await call(await t.loginOperator(), 'POST', '/api/backoffice/daily', { date });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return runDailyResponseSchema.parse(res.body);
  }

  /** Schedule rows of every plan (the demo's plans too) that have their invoice. */
  async function invoicedRows() {
    return (await t.db.select().from(installmentPlanRows).where(isNotNull(installmentPlanRows.invoiceId)))
      .length;
  }

  /** The installments whose invoice date (30 days before the due date) has come by `date`. */
  const dueBy = (rows: readonly { dueDate: string }[], date: string) =>
    rows.filter((r) => addDays(r.dueDate, -INSTALLMENT_INVOICE_DAYS) <= date).length;

  it('invoices each installment once on its date, takes its BGMAX payment, never charges it back, and the books hold', async () => {
    const plan = await approved();
    const books = async () => expect(await checkBooks(t.db, plan.issuerId)).toEqual([]);
    const first = (await plan.detail()).installments;
    const [one, two] = first;
    if (!one || !two) throw new Error('no schedule');

    // The day before the first invoice date: nothing yet.
    const before = addDays(one.dueDate, -INSTALLMENT_INVOICE_DAYS - 1);
    // The job collects the demo's plans too: this plan's invoices are counted on the plan.
    expect((await runDay(before)).failures).toEqual([]);
    expect((await plan.detail()).installments.filter((r) => r.invoiceID)).toHaveLength(dueBy(first, before));

    // Past the second due date: every installment whose date has come has one invoice, and twice is once.
    const past = addDays(two.dueDate, 1);
    const linked = await invoicedRows();
    const ran = await runDay(past);
    expect(ran.failures).toEqual([]);
    // The job's count is every plan's (the demo's plans are collected too); this plan's come below.
    expect(ran.installmentsInvoiced).toBe((await invoicedRows()) - linked);
    expect(ran.installmentsInvoiced).toBeGreaterThanOrEqual(dueBy(first, past) - dueBy(first, before));
    expect((await runDay(past)).installmentsInvoiced).toBe(0);
    await books();
    const after = await plan.detail();
    expect(after.installments.filter((r) => r.invoiceID)).toHaveLength(dueBy(first, past));
    expect(after.events.filter((e) => e.event === PLAN_EVENT.installmentInvoiced)).toHaveLength(
      dueBy(first, past),
    );
    const [row1, row2] = after.installments;
    // Both due dates have passed: the invoices are overdue, not paid.
    expect(row1?.invoiceState).toBe(INVOICE_STATE.notPaid);
    expect(row2?.invoiceState).toBe(INVOICE_STATE.notPaid);

    const invoice = (await call(await t.login('demo'), 'GET', `/api/limited/invoices/${row1?.invoiceID}`))
      .body as {
      service: string;
      ocr: string;
      dueDate: string;
      toPayMinor: number;
      rows: { name: string; unitPriceMinor: number; vatBasisPoints: number }[];
    };
    expect(invoice).toMatchObject({ service: 'loans', dueDate: one.dueDate, toPayMinor: one.amountMinor });
    expect(invoice.rows.map((r) => [r.name, r.unitPriceMinor, r.vatBasisPoints])).toEqual([
      ['Avbetalning 1/12', one.principalMinor, 0],
      ['Uppläggningsavgift', one.initialFeeMinor, 0],
      ['Månadsavgift', one.monthlyFeeMinor, 0],
      ['Administrationsavgift', one.administrationFeeMinor, 0],
    ]);

    // Its document was drawn and stored when the job issued it (frozen, as every sent invoice's), before
    // anyone downloaded it; the download answers exactly those bytes, a PDF that opens.
    const [stored] = await t.db
      .select()
      .from(invoiceDocuments)
      .where(eq(invoiceDocuments.invoiceId, row1?.invoiceID ?? ''));
    expect(stored).toMatchObject({ kind: 'generated', language: 'sv-SE' });
    const pdf = await call(await t.login('demo'), 'GET', `/api/limited/invoices/${row1?.invoiceID}/pdf`);
    expect(pdf.status).toBe(200);
    expect(Buffer.compare(pdf.raw, Buffer.from(stored?.data ?? []))).toBe(0);
    const spaced = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');
    const read = spaced((await pdfText(new Uint8Array(pdf.raw))).text);
    expect(read).toContain(`${after.loanNumber}-1`);
    expect(read).toContain(spaced(formatAmount(one.amountMinor, 'sv-SE')));

    // The buyer pays the first installment by its OCR reference; our reader takes our writer's file.
    const file = paidToBygg(t, [{ reference: invoice.ocr, amountMinor: one.amountMinor }], {
      firstSerial: 770_001,
      firstDeposit: 77_001,
    });
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/payments/import?filename=plan.bgmax',
      headers: { ...bearer(await t.loginOperator()), 'content-type': 'application/octet-stream' },
      payload: Buffer.from(file),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const paid = await plan.detail();
    expect(paid.installments[0]).toMatchObject({ invoiceState: INVOICE_STATE.paid, remainingMinor: 0 });
    // The payment is on the plan's timeline too, once, with the installment and the amount.
    const paidEvents = paid.events.filter((e) => e.event === PLAN_EVENT.installmentPaid);
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0]?.details).toMatchObject({
      invoiceID: row1?.invoiceID,
      installment: 1,
      amountMinor: one.amountMinor,
      remainingMinor: 0,
    });
    expect(paid.installments[1]?.invoiceState).toBe(INVOICE_STATE.notPaid);
    expect(paid.state).toBe(PLAN_STATE.active);
    await books();
    expect((await runDay(past)).installmentsInvoiced).toBe(0);
    await books();

    // Past the loans' recourse days (60) the second installment is in collection, still the buyer's.
    const late = addDays(two.dueDate, 61);
    expect((await runDay(late)).failures).toEqual([]);
    expect((await plan.detail()).installments[1]).toMatchObject({
      invoiceState: INVOICE_STATE.notPaid,
      remainingMinor: two.amountMinor,
    });
    await books();
  });

  it('goes on with the other plans when one fails, and completes a plan once everything is paid', async () => {
    const failing = await approved({ noOfInstallments: 2 });
    const other = await approved({ noOfInstallments: 2 });
    const [, last] = (await other.detail()).installments;
    if (!last) throw new Error('no schedule');
    const day = addDays(last.dueDate, -INSTALLMENT_INVOICE_DAYS);
    const runs: Awaited<ReturnType<typeof runDay>>[] = [];
    const linked = await invoicedRows();
    await whileRefusing(t.db, 'installment_plan_events', `new.plan_id = '${failing.id}'`, async () => {
      runs.push(await runDay(day));
    });
    // The other plan's two and the demo's plans' invoices of the day; none of the failing plan.
    expect(runs[0]?.installmentsInvoiced).toBe((await invoicedRows()) - linked);
    expect(runs[0]?.failures).toEqual([
      expect.objectContaining({ planID: failing.id, invoiceID: null, issuerID: failing.issuerId }),
    ]);
    expect((await failing.detail()).installments.filter((r) => r.invoiceID)).toHaveLength(0);
    expect((await other.detail()).installments.filter((r) => r.invoiceID)).toHaveLength(2);
    expect(await checkBooks(t.db, other.issuerId)).toEqual([]);
    // The next run takes the failed plan as if nothing had happened.
    expect((await runDay(day)).installmentsInvoiced).toBe(2);

    // One BGMAX file (our writer's, read by our reader) pays every invoice of both plans. The import
    // completes the other plan at once, with its event, without a daily run; the failing plan's
    // completion is refused, is rolled back alone, and the import goes on.
    const payments: { reference: string; amountMinor: number }[] = [];
    for (const plan of [failing, other])
      for (const r of (await plan.detail()).installments) {
        const inv = (await call(await t.login('demo'), 'GET', `/api/limited/invoices/${r.invoiceID}`))
          .body as { ocr: string };
        payments.push({ reference: inv.ocr, amountMinor: r.amountMinor });
      }
    let imported: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    const itsCompletion = `new.plan_id = '${failing.id}' and new.event = ${PLAN_EVENT.completed}`;
    await whileRefusing(t.db, 'installment_plan_events', itsCompletion, async () => {
      imported = await t.app.inject({
        method: 'POST',
        url: '/api/backoffice/payments/import?filename=both.bgmax',
        headers: { ...bearer(await t.loginOperator()), 'content-type': 'application/octet-stream' },
        payload: Buffer.from(paidToBygg(t, payments, { firstSerial: 660_001, firstDeposit: 66_001 })),
      });
    });
    expect(imported?.statusCode, imported?.body).toBe(200);
    expect(imported?.json()).toMatchObject({ matched: 4, unmatched: 0 });
    const done = await other.detail();
    expect(done).toMatchObject({ state: PLAN_STATE.completed, remainingMinor: 0 });
    expect(done.events.at(-1)?.event).toBe(PLAN_EVENT.completed);
    expect(done.installments.every((r) => r.invoiceState === INVOICE_STATE.paid)).toBe(true);
    const unfinished = await failing.detail();
    expect(unfinished.state).toBe(PLAN_STATE.active);
    expect(unfinished.installments.every((r) => r.invoiceState === INVOICE_STATE.paid)).toBe(true);
    expect(await checkBooks(t.db, other.issuerId)).toEqual([]);

    // The daily job completes a plan paid up without its completion (here: the one refused above), once.
    const next = await runDay(day);
    expect(next.plansCompleted).toBe(1);
    expect(next.failures).toEqual([]);
    expect((await runDay(day)).plansCompleted).toBe(0);
    const late = await failing.detail();
    expect(late).toMatchObject({ state: PLAN_STATE.completed, remainingMinor: 0 });
    expect(late.events.filter((e) => e.event === PLAN_EVENT.completed)).toHaveLength(1);
    expect((await other.detail()).events.filter((e) => e.event === PLAN_EVENT.completed)).toHaveLength(1);
    expect(await checkBooks(t.db, other.issuerId)).toEqual([]);
  });

  it('completes a plan when an operator assigns the payment of its last invoice', async () => {
    const plan = await approved({ noOfInstallments: 1 });
    const [only] = (await plan.detail()).installments;
    if (!only) throw new Error('no schedule');
    await runDay(addDays(only.dueDate, -INSTALLMENT_INVOICE_DAYS));
    const invoiceID = (await plan.detail()).installments[0]?.invoiceID ?? '';
    // The payer got the reference wrong: the payment waits for an operator.
    const file = paidToBygg(t, [{ reference: '7000000000123', amountMinor: only.amountMinor }], {
      firstSerial: 880_001,
      firstDeposit: 88_001,
    });
    const operator = await t.loginOperator();
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/payments/import?filename=wrong.bgmax',
      headers: { ...bearer(operator), 'content-type': 'application/octet-stream' },
      payload: Buffer.from(file),
    });
    expect(imported.json()).toMatchObject({ unmatched: 1 });
    expect((await plan.detail()).state).toBe(PLAN_STATE.active);
    const unmatched = (await call(operator, 'GET', '/api/backoffice/payments/unmatched')).body as {
      items: { paymentID: string; amountMinor: number }[];
    };
    const payment = unmatched.items.find((p) => p.amountMinor === only.amountMinor);
    const assigned = await call(operator, 'POST', `/api/backoffice/payments/${payment?.paymentID}/assign`, {
      invoiceID,
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const done = await plan.detail();
    expect(done.state).toBe(PLAN_STATE.completed);
    expect(done.events.at(-1)?.event).toBe(PLAN_EVENT.completed);
    expect(await checkBooks(t.db, plan.issuerId)).toEqual([]);
  });

  it('gives the final notice past the arrears limit, resumes when paid, and recalls the rest when the notice runs out', async () => {
    const plan = await approved();
    const rows = (await plan.detail()).installments;
    const [one] = rows;
    if (!one) throw new Error('no schedule');
    const pay = async (count: number, serial: number) => {
      const open = (await plan.detail()).installments
        .filter((r) => r.invoiceID && r.invoiceState !== INVOICE_STATE.paid)
        .slice(0, count);
      const payments = [];
      for (const r of open) {
        const inv = (await call(await t.login('demo'), 'GET', `/api/limited/invoices/${r.invoiceID}`))
          .body as {
          ocr: string;
        };
        payments.push({ reference: inv.ocr, amountMinor: r.remainingMinor ?? 0 });
      }
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/backoffice/payments/import?filename=p${serial}.bgmax`,
        headers: { ...bearer(await t.loginOperator()), 'content-type': 'application/octet-stream' },
        payload: Buffer.from(
          paidToBygg(t, payments, { firstSerial: serial, firstDeposit: serial % 100_000 }),
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Two months and a day after the first due date, nothing paid: the final notice.
    const noticed = addDays(one.dueDate, 61);
    await runDay(addDays(one.dueDate, 60));
    expect((await plan.detail()).state).toBe(PLAN_STATE.active);
    await runDay(noticed);
    const notice = await plan.detail();
    expect(notice.state).toBe(PLAN_STATE.finalNotice);
    expect(notice.events.at(-1)).toMatchObject({
      event: PLAN_EVENT.finalNotice,
      details: { noticeEndsOn: addDays(noticed, FINAL_NOTICE_DAYS) },
    });
    expect(await checkBooks(t.db, plan.issuerId)).toEqual([]);

    // The buyer pays everything issued: the plan is active again.
    await pay(99, 550_001);
    await runDay(addDays(noticed, 1));
    expect((await plan.detail()).state).toBe(PLAN_STATE.active);

    // Nothing more is paid: a new notice, and when it runs out the rest falls due as one invoice.
    let day = addDays(noticed, 1);
    while ((await plan.detail()).state === PLAN_STATE.active) {
      day = addDays(day, 10);
      await runDay(day);
    }
    const second = await plan.detail();
    expect(second.state).toBe(PLAN_STATE.finalNotice);
    const ends = addDays(day, FINAL_NOTICE_DAYS);
    await runDay(addDays(ends, -1));
    expect((await plan.detail()).state).toBe(PLAN_STATE.finalNotice);
    const notInvoiced = (await plan.detail()).installments
      .filter((r) => !r.invoiceID)
      .reduce((sum, r) => sum + r.principalMinor, 0);
    await runDay(ends);
    const recalled = await plan.detail();
    expect(recalled.state).toBe(PLAN_STATE.recalled);
    const [stored] = await t.db.select().from(installmentPlans).where(eq(installmentPlans.id, plan.id));
    const recall = (
      await call(await t.login('demo'), 'GET', `/api/limited/invoices/${stored?.recallInvoiceId}`)
    ).body as { toPayMinor: number; service: string; state: number };
    expect(recall).toMatchObject({ toPayMinor: notInvoiced, service: 'loans', state: INVOICE_STATE.notPaid });
    expect(notInvoiced).toBeGreaterThan(0);
    expect(await checkBooks(t.db, plan.issuerId)).toEqual([]);
    // The ledger names the plan on the recall invoice as on its installments (issue #14).
    const ledger = (
      await call(await t.login('demo'), 'GET', `/api/limited/reports/ledger?date=${ends}&pageSize=100`)
    ).body as { items: { invoiceID: string; installmentPlanID: string | null; loanNumber: string | null }[] };
    expect(ledger.items.find((i) => i.invoiceID === stored?.recallInvoiceId)).toMatchObject({
      installmentPlanID: plan.id,
      loanNumber: recalled.loanNumber,
    });
    // Twice is once: no second recall invoice, no more installment invoices.
    const again = await runDay(ends);
    expect(again.installmentsInvoiced).toBe(0);
    expect((await plan.detail()).events.filter((e) => e.event === PLAN_EVENT.recalled)).toHaveLength(1);
  });
});
