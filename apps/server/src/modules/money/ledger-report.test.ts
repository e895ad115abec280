import type { LedgerResponse } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP, recourseDate } from '@portal/domain/money-flow';
import { translate } from '@portal/i18n';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { approvedPlan, runDailyOn } from '../../../test/support/installment-plans';
import { paidToBygg, sentInvoices } from '../../../test/support/money';
import { pdfText } from '../../../test/support/pdf-text';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoiceEvents, invoices, issuers, postings, recipients } from '../../db/schema';
import { todayIn } from '../../lib/today';
import { importBgmaxFile, processOn, runDailyJob } from './money.service';

const t = useTestApp({ resetEach: true });

async function ledger(token: string, query: string): Promise<LedgerResponse> {
  const res = await t.app.inject({ url: `/api/limited/reports/ledger?${query}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LedgerResponse;
}

/** Every row of the ledger on `date`, page by page. */
async function wholeLedger(token: string, date: string) {
  const items: LedgerResponse['items'] = [];
  let first: LedgerResponse | null = null;
  for (let page = 1; ; page++) {
    const got = await ledger(token, `date=${date}&page=${page}&pageSize=100`);
    first ??= got;
    items.push(...got.items);
    if (got.items.length < 100) break;
  }
  return { items, totals: first?.totals ?? [], total: first?.total ?? 0 };
}

/** The 13 cells of every row of the first sheet of an Excel file, the header first ('' for none). */
async function sheetRows(bytes: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]?.eachRow((r) =>
    rows.push(Array.from({ length: 13 }, (_, c) => r.getCell(c + 1).value ?? '')),
  );
  return rows;
}

/** Three approved invoices on 2026-03-02; on 2026-03-10 the first is paid in full and the second in part. */
async function paidInPart() {
  const [full, part, open] = await sentInvoices(t, { n: 3, approve: true });
  if (!full || !part || !open) throw new Error('three invoices');
  t.clock.set(new Date('2026-03-10T09:00:00.000Z'));
  await importBgmaxFile(
    t.db,
    paidToBygg(t, [
      { reference: full.ocr ?? '', amountMinor: full.toPayMinor },
      { reference: part.ocr ?? '', amountMinor: 10_000 },
    ]),
    { filename: 'in.bgmax', operatorId: null, now: t.clock.now() },
  );
  return { full, part, open };
}

describe('GET /api/limited/reports/ledger', () => {
  it('shows the invoices on the book on the date with what remained then', async () => {
    const { full, part, open } = await paidInPart();
    const token = await t.login('demo');
    const find = (items: LedgerResponse['items'], n: string) => items.find((i) => i.invoiceNumber === n);

    const before = await wholeLedger(token, '2026-03-01');
    for (const i of [full, part, open]) expect(find(before.items, i.invoiceNumber)).toBeUndefined();

    const mid = await wholeLedger(token, '2026-03-05');
    expect(find(mid.items, full.invoiceNumber)?.remainingMinor).toBe(full.toPayMinor);
    expect(find(mid.items, part.invoiceNumber)?.remainingMinor).toBe(part.toPayMinor);
    expect(find(mid.items, open.invoiceNumber)?.remainingMinor).toBe(open.toPayMinor);

    const after = await wholeLedger(token, '2026-03-10');
    expect(find(after.items, full.invoiceNumber)).toBeUndefined();
    expect(find(after.items, part.invoiceNumber)?.remainingMinor).toBe(part.toPayMinor - 10_000);
    const row = find(after.items, open.invoiceNumber);
    const [recipient] = await t.db.select().from(recipients).where(eq(recipients.id, open.recipientId));
    expect(row).toEqual({
      invoiceID: open.id,
      invoiceNumber: open.invoiceNumber,
      invoiceDate: open.invoiceDate,
      dueDate: open.dueDate,
      service: open.service,
      customer: recipient?.name,
      organizationNumber: recipient?.organizationNumber,
      city: recipient?.city,
      sni: recipient?.sni,
      amountMinor: open.toPayMinor,
      currency: open.currency,
      remainingMinor: open.toPayMinor,
      process: 'none',
      installmentPlanID: null,
      loanNumber: null,
    });
    expect(recipient?.sni).toMatch(/^\d{5}$/);

    // Totals per currency are those of every row, not of one page.
    for (const total of after.totals) {
      const mine = after.items.filter((i) => i.currency === total.currency);
      expect(total.count).toBe(mine.length);
      expect(total.amountMinor).toBe(mine.reduce((s, i) => s + i.amountMinor, 0));
      expect(total.remainingMinor).toBe(mine.reduce((s, i) => s + i.remainingMinor, 0));
    }
    expect(after.total).toBe(after.items.length);
  });

  it('pages and sorts', async () => {
    await sentInvoices(t, { n: 4, approve: true });
    const token = await t.login('demo');
    const all = await wholeLedger(token, '2026-03-02');
    expect(all.items.length).toBeGreaterThanOrEqual(4);
    const sorted = await ledger(token, 'date=2026-03-02&pageSize=3&sort=remaining&order=desc');
    expect(sorted.items).toHaveLength(3);
    const most = Math.max(...all.items.map((i) => i.remainingMinor));
    expect(sorted.items[0]?.remainingMinor).toBe(most);
    const values = sorted.items.map((i) => i.remainingMinor);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const page2 = await ledger(token, 'date=2026-03-02&pageSize=3&page=2&sort=remaining&order=desc');
    expect(page2.items[0]?.remainingMinor ?? 0).toBeLessThanOrEqual(values[2] ?? 0);
    expect(page2.total).toBe(all.items.length);
  });

  it('never shows another issuer’s invoices', async () => {
    const mine = await sentInvoices(t, { n: 2, approve: true });
    const other = await wholeLedger(await t.login('demo-other'), '2026-03-02');
    for (const i of mine) expect(other.items.map((r) => r.invoiceID)).not.toContain(i.id);
  });

  it('a charged-back invoice shows the dunning step of each earlier day, and is gone from the charge back on', async () => {
    const [inv] = await sentInvoices(t, { n: 1, approve: true, dueDate: '2026-04-01' });
    if (!inv) throw new Error('one invoice');
    const [issuer] = await t.db.select().from(issuers).where(eq(issuers.id, inv.issuerId));
    if (!issuer) throw new Error('issuer');
    const chargeBackDay = recourseDate(inv.dueDate, issuer.recourseDays);
    // The daily job on the day of each collection step (at 07:00 in Stockholm) …
    for (const late of [1, 10, 24, 38])
      await runDailyJob(t.db, {
        date: addDays(inv.dueDate, late),
        now: new Date(`${addDays(inv.dueDate, late)}T05:00:00Z`),
        referenceRateBp: DEFAULT_REFERENCE_RATE_BP,
      });
    // … and on the charge back day just after midnight in Stockholm, still the day before in UTC:
    // the charge back belongs to its Stockholm day.
    const chargedAt = new Date(`${addDays(chargeBackDay, -1)}T22:30:00Z`);
    expect(todayIn(chargedAt)).toBe(chargeBackDay);
    await runDailyJob(t.db, {
      date: chargeBackDay,
      now: chargedAt,
      referenceRateBp: DEFAULT_REFERENCE_RATE_BP,
    });
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(after).toMatchObject({ state: 5, dunningStep: 4 });
    const [charged] = await t.db
      .select()
      .from(invoiceEvents)
      .where(and(eq(invoiceEvents.invoiceId, inv.id), eq(invoiceEvents.event, 22)));
    expect(charged?.at).toEqual(chargedAt);

    const token = await t.login('demo');
    const processOnDay = async (date: string) =>
      (await wholeLedger(token, date)).items.find((i) => i.invoiceID === inv.id);
    // Before the charge back: the step the invoice had reached on that day, with all of it remaining.
    const expected: [number, string][] = [
      [0, 'none'],
      [1, 'overdue'],
      [9, 'overdue'],
      [10, 'reminder1'],
      [23, 'reminder1'],
      [24, 'reminder2'],
      [38, 'collection'],
      [issuer.recourseDays - 1, 'collection'],
    ];
    expect(issuer.recourseDays).toBeGreaterThan(38);
    for (const [late, process] of expected) {
      const row = await processOnDay(addDays(inv.dueDate, late));
      expect(row, `due + ${late}`).toMatchObject({ process, remainingMinor: inv.toPayMinor });
    }
    // From the charge back on, its receivable sums to zero: off the ledger.
    expect(await processOnDay(chargeBackDay)).toBeUndefined();
    expect(await processOnDay(addDays(chargeBackDay, 30))).toBeUndefined();

    // The export of the day before says the same, in words.
    const xlsx = await t.app.inject({
      url: `/api/limited/reports/ledger/export?date=${addDays(chargeBackDay, -1)}&fileType=excel&language=en-US`,
      headers: bearer(token),
    });
    expect(xlsx.statusCode).toBe(200);
    const row = (await sheetRows(xlsx.rawPayload)).find((r) => r[0] === inv.invoiceNumber);
    expect(row?.[12]).toBe('Debt collection');
  });

  it('shows each collection step from the day its event was written, not from the day the due date implies (issue #16)', async () => {
    const [inv] = await sentInvoices(t, { n: 1, approve: true, dueDate: '2026-04-01' });
    if (!inv) throw new Error('one invoice');
    const due = inv.dueDate;
    // The daily job runs late, each step days after the one the due date implies (overdue on +1,
    // reminder 1 on +10, reminder 2 on +24, collection on +38): on +5, +12, +30 and +45.
    const runOn = (late: number, at = new Date(`${addDays(due, late)}T05:00:00Z`)) =>
      runDailyJob(t.db, { date: addDays(due, late), now: at, referenceRateBp: DEFAULT_REFERENCE_RATE_BP });
    await runOn(5);
    await runOn(12);
    // Reminder 2 just after midnight in Stockholm, still the day before in UTC: it is +30's.
    const lateNight = new Date(`${addDays(due, 29)}T22:30:00Z`);
    expect(todayIn(lateNight)).toBe(addDays(due, 30));
    await runOn(30, lateNight);
    await runOn(45);
    const steps = await t.db
      .select()
      .from(invoiceEvents)
      .where(and(eq(invoiceEvents.invoiceId, inv.id), inArray(invoiceEvents.event, [25, 8, 9, 10])));
    expect(steps.map((e) => e.event).sort((a, b) => a - b)).toEqual([8, 9, 10, 25]);

    const token = await t.login('demo');
    const processOnDay = async (late: number) =>
      (await wholeLedger(token, addDays(due, late))).items.find((i) => i.invoiceID === inv.id)?.process;
    const expected: [number, string][] = [
      [0, 'none'],
      [1, 'none'],
      [4, 'none'],
      [5, 'overdue'],
      [11, 'overdue'],
      [12, 'reminder1'],
      [29, 'reminder1'],
      [30, 'reminder2'],
      [44, 'reminder2'],
      [45, 'collection'],
      [50, 'collection'],
    ];
    for (const [late, process] of expected) expect(await processOnDay(late), `due + ${late}`).toBe(process);
    // The export says the same as the screen on a day the due date alone would have called collection.
    const xlsx = await t.app.inject({
      url: `/api/limited/reports/ledger/export?date=${addDays(due, 40)}&fileType=excel&language=en-US`,
      headers: bearer(token),
    });
    expect(xlsx.statusCode).toBe(200);
    const row = (await sheetRows(xlsx.rawPayload)).find((r) => r[0] === inv.invoiceNumber);
    expect(row?.[12]).toBe(translate('en-US', 'reports', 'ledger.process.reminder2'));
  });

  it('exports the spec columns and the loan number as Excel and PDF, equal to the API', async () => {
    const { part, open } = await paidInPart();
    const token = await t.login('demo');
    const api = await wholeLedger(token, '2026-03-10');
    const xlsx = await t.app.inject({
      url: '/api/limited/reports/ledger/export?date=2026-03-10&fileType=excel&language=en-US',
      headers: bearer(token),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('filename="ledger-2026-03-10.xlsx"');
    const [header, ...body] = await sheetRows(xlsx.rawPayload);
    expect(header).toEqual([
      'Invoice number',
      'Loan number',
      'Invoice date',
      'Due date',
      'Service',
      'Customer',
      'Organization number',
      'City',
      'SNI',
      'Amount',
      'Currency',
      'Remaining',
      'Process',
    ]);
    // Every row, all 13 columns, equal to the API's row.
    const byNumber = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect([...body].sort(byNumber)).toEqual(
      api.items
        .map((i) => [
          i.invoiceNumber,
          i.loanNumber ?? '',
          i.invoiceDate,
          i.dueDate,
          translate('en-US', 'invoices', `services.${i.service}`),
          i.customer,
          i.organizationNumber,
          i.city,
          i.sni,
          i.amountMinor / 100,
          i.currency,
          i.remainingMinor / 100,
          translate('en-US', 'reports', `ledger.process.${i.process}`),
        ])
        .sort(byNumber),
    );
    // And the rows of the unpaid and the part-paid invoice, all 13 columns, against the database:
    // the invoice, its recipient, and its receivable postings (all made by 2026-03-10).
    for (const id of [open.id, part.id]) {
      const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, id));
      if (!inv) throw new Error(id);
      const [customer] = await t.db.select().from(recipients).where(eq(recipients.id, inv.recipientId));
      const receivable = await t.db
        .select()
        .from(postings)
        .where(and(eq(postings.invoiceId, id), eq(postings.account, 'receivable')));
      const remaining = receivable.reduce((sum, p) => sum + p.amountMinor, 0);
      expect(remaining).toBe(inv.remainingMinor);
      expect(body.find((r) => r[0] === inv.invoiceNumber)).toEqual([
        inv.invoiceNumber,
        '',
        inv.invoiceDate,
        inv.dueDate,
        translate('en-US', 'invoices', `services.${inv.service}`),
        customer?.name,
        customer?.organizationNumber,
        customer?.city,
        customer?.sni,
        inv.toPayMinor / 100,
        inv.currency,
        remaining / 100,
        'Not due',
      ]);
    }
    expect(body.find((r) => r[0] === part.invoiceNumber)?.[11]).toBe((part.toPayMinor - 10_000) / 100);

    const pdf = await t.app.inject({
      url: '/api/limited/reports/ledger/export?date=2026-03-10&fileType=pdf&language=en-US',
      headers: bearer(token),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain('filename="ledger-2026-03-10.pdf"');
    const { text } = await pdfText(pdf.rawPayload);
    expect(text).toContain('Ledger');
    expect(text).toContain('As of 2026-03-10');
    for (const i of api.items.slice(0, 20)) expect(text).toContain(i.invoiceNumber);
  });
});

describe('installment plans in the ledger (issue #14)', () => {
  it('names each installment invoice’s plan and loan number, in the API and in the Excel and PDF files', async () => {
    const plan = await approvedPlan(t, { terms: { startDate: '2026-03-20', noOfInstallments: 2 } });
    const [one, two] = plan.installments;
    if (!one || !two) throw new Error('no schedule');
    // The daily job issues the first installment's invoice, then the second's.
    await runDailyOn(t, addDays(one.dueDate, -30));
    const date = addDays(two.dueDate, -30);
    await runDailyOn(t, date);
    const token = await t.login('demo');
    const all = await wholeLedger(token, date);
    const loan = plan.loanNumber;
    const mine = all.items.filter((i) => i.installmentPlanID === plan.installmentPlanID);
    expect(mine.map((i) => [i.invoiceNumber, i.loanNumber, i.service, i.remainingMinor])).toEqual([
      [`${loan}-1`, loan, 'loans', one.amountMinor],
      [`${loan}-2`, loan, 'loans', two.amountMinor],
    ]);
    // The other invoices name no plan, but the demo's plans' installments, each its own plan's.
    const others = all.items.filter((i) => i.installmentPlanID !== plan.installmentPlanID);
    expect(others.some((i) => i.installmentPlanID === null && i.loanNumber === null)).toBe(true);
    for (const i of others) {
      if (i.loanNumber === null) expect(i.installmentPlanID).toBeNull();
      else expect(i.invoiceNumber.startsWith(`${i.loanNumber}-`)).toBe(true);
    }
    // Before the first invoice was issued the plan had nothing on the ledger.
    const before = await wholeLedger(token, addDays(one.dueDate, -31));
    expect(before.items.some((i) => i.installmentPlanID === plan.installmentPlanID)).toBe(false);

    const xlsx = await t.app.inject({
      url: `/api/limited/reports/ledger/export?date=${date}&fileType=excel&language=en-US`,
      headers: bearer(token),
    });
    expect(xlsx.statusCode).toBe(200);
    const [header, ...body] = await sheetRows(xlsx.rawPayload);
    expect(header?.slice(0, 2)).toEqual(['Invoice number', 'Loan number']);
    expect(body.filter((r) => r[1] === loan).map((r) => [r[0], r[9], r[11]])).toEqual([
      [`${loan}-1`, one.amountMinor / 100, one.amountMinor / 100],
      [`${loan}-2`, two.amountMinor / 100, two.amountMinor / 100],
    ]);

    const pdf = await t.app.inject({
      url: `/api/limited/reports/ledger/export?date=${date}&fileType=pdf&language=sv-SE`,
      headers: bearer(token),
    });
    expect(pdf.statusCode).toBe(200);
    const { text } = await pdfText(pdf.rawPayload);
    expect(text).toContain('Lånenummer');
    expect(text).toContain(`${loan}-2`);
    expect(text.split(loan).length - 1).toBeGreaterThanOrEqual(4);
  });
});

describe('processOn', () => {
  it('is the furthest step whose event was written by the date, or charged back once that was', () => {
    expect(processOn({ chargedBack: false, stepReached: 0 })).toBe('none');
    expect(processOn({ chargedBack: false, stepReached: 1 })).toBe('overdue');
    expect(processOn({ chargedBack: false, stepReached: 2 })).toBe('reminder1');
    expect(processOn({ chargedBack: false, stepReached: 3 })).toBe('reminder2');
    expect(processOn({ chargedBack: false, stepReached: 4 })).toBe('collection');
    expect(processOn({ chargedBack: true, stepReached: 4 })).toBe('chargedBack');
  });
});
