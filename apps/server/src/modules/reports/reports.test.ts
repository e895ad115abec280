import { RECOURSE_SERVICES } from '@portal/contracts';
import { recourseDate } from '@portal/domain/money-flow';
import { translate } from '@portal/i18n';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sentInvoices } from '../../../test/support/money';
import { pdfText } from '../../../test/support/pdf-text';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoices, issuers, recipients, users } from '../../db/schema';

const t = useTestApp({ resetEach: true });

async function issuerOf(username: string) {
  const [user] = await t.db.select().from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no ${username}`);
  return user.issuerId;
}

/**
 * Active invoices of the other issuer (demo-other has no recipients nor currencies to send with), put
 * straight in the database: they only have to exist for the file to be able to leak them.
 */
async function otherIssuerInvoices(opts: { n: number; dueDate?: string }) {
  const issuerId = await issuerOf('demo-other');
  const [recipient] = await t.db
    .insert(recipients)
    .values({
      issuerId,
      name: 'Annan Kund AB',
      zipcode: '11122',
      city: 'Stockholm',
      email: 'kund@example.se',
    })
    .returning();
  const rows = Array.from({ length: opts.n }, (_, i) => ({
    issuerId,
    recipientId: recipient?.id ?? '',
    invoiceNumber: `OTHER-${i + 1}`,
    service: 'factoring',
    state: 2,
    currency: 'SEK',
    invoiceDate: '2026-03-02',
    dueDate: opts.dueDate ?? '2026-04-01',
    ocr: `9900${i + 1}`,
    netMinor: 10_000,
    vatMinor: 2_500,
    grossMinor: 12_500,
    toPayMinor: 12_500,
    remainingMinor: 12_500,
    vatLines: [],
  }));
  return t.db.insert(invoices).values(rows).returning();
}

async function sheetRows(body: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('GET /api/limited/reports/activeInvoices', () => {
  it('streams every active invoice of the caller’s issuer, and only those, read back equal to the database', async () => {
    // Approved factoring invoices are in state 2, so the file cannot be empty.
    await sentInvoices(t, { n: 3, approve: true });
    await otherIssuerInvoices({ n: 2 });
    const issuerId = await issuerOf('demo');
    const expected = await t.db
      .select({ i: invoices, r: recipients })
      .from(invoices)
      .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
      .where(and(eq(invoices.issuerId, issuerId), inArray(invoices.state, [2, 3])));
    expect(expected.length).toBeGreaterThanOrEqual(3);

    const res = await t.app.inject({
      url: '/api/limited/reports/activeInvoices?language=en-US',
      headers: bearer(await t.login('demo')),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="active-invoices-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const [header, ...rows] = await sheetRows(res.rawPayload);
    expect(header).toEqual([
      'Invoice number',
      'Invoice date',
      'Due date',
      'Service',
      'Recipient',
      'Organization number',
      'Amount',
      'Remaining',
      'Currency',
      'OCR',
      'Status',
    ]);
    expect(rows).toHaveLength(expected.length);
    const byNumber = new Map(rows.map((r) => [String(r[0]), r]));
    for (const { i, r } of expected) {
      const row = byNumber.get(i.invoiceNumber);
      expect(row, i.invoiceNumber).toBeDefined();
      expect(row?.slice(1)).toEqual([
        i.invoiceDate,
        i.dueDate,
        translate('en-US', 'invoices', `services.${i.service}`),
        r.name,
        r.organizationNumber || undefined,
        i.toPayMinor / 100,
        i.remainingMinor / 100,
        i.currency,
        i.ocr ?? undefined,
        translate('en-US', 'invoices', `states.${i.state}`),
      ]);
    }
    // Another issuer's invoices never appear.
    const otherIds = await issuerOf('demo-other');
    const others = await t.db.select().from(invoices).where(eq(invoices.issuerId, otherIds));
    expect(others.length).toBeGreaterThanOrEqual(2);
    const ownNumbers = new Set(expected.map((e) => e.i.invoiceNumber));
    for (const o of others)
      if (!ownNumbers.has(o.invoiceNumber)) expect(byNumber.has(o.invoiceNumber)).toBe(false);
  });

  it('writes the labels in the user’s own language by default', async () => {
    await sentInvoices(t, { n: 1, approve: true });
    const res = await t.app.inject({
      url: '/api/limited/reports/activeInvoices',
      headers: bearer(await t.login('demo')),
    });
    const [header] = await sheetRows(res.rawPayload);
    const [user] = await t.db.select().from(users).where(eq(users.username, 'demo'));
    expect(header?.[0]).toBe(translate(user?.language ?? 'sv-SE', 'reports', 'active.columns.invoiceNumber'));
  });

  it('names the file after today in Stockholm by the app’s clock', async () => {
    // 22:30 UTC on 31 March 2026 is already 1 April in Stockholm; and not the machine's today.
    t.clock.set(new Date('2026-03-31T22:30:00.000Z'));
    const token = await t.login('demo');
    const res = await t.app.inject({
      url: '/api/limited/reports/activeInvoices?language=en-US',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="active-invoices-2026-04-01.xlsx"');
    t.clock.set(new Date('2027-01-15T10:00:00.000Z'));
    const later = await t.app.inject({
      url: '/api/limited/reports/activeInvoices?language=en-US',
      headers: bearer(await t.login('demo')),
    });
    expect(later.statusCode).toBe(200);
    expect(later.headers['content-disposition']).toContain('filename="active-invoices-2027-01-15.xlsx"');
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ url: '/api/limited/reports/activeInvoices' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/limited/reports/activeRegress', () => {
  async function regressSetup() {
    const issuerId = await issuerOf('demo');
    await t.db.update(issuers).set({ recourseDays: 30 }).where(eq(issuers.id, issuerId));
    const inside = await sentInvoices(t, { n: 2, approve: true, dueDate: '2026-04-01' }); // recourse 2026-05-01
    const later = await sentInvoices(t, { n: 1, approve: true, dueDate: '2026-06-01' }); // recourse 2026-07-01
    const noRecourse = await sentInvoices(t, {
      n: 1,
      approve: true,
      service: 'nonRecourseFactoring',
      dueDate: '2026-04-01',
    });
    const other = await otherIssuerInvoices({ n: 1, dueDate: '2026-04-01' });
    return { issuerId, inside, later, noRecourse, other };
  }

  /** The oracle: the database, filtered with the domain's recourse date. */
  async function expectedRegress(issuerId: string, from: string, to: string) {
    const all = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.issuerId, issuerId), inArray(invoices.state, [2, 3])));
    return all.filter((i) => {
      const day = recourseDate(i.dueDate, 30);
      return RECOURSE_SERVICES.includes(i.service as never) && day >= from && day <= to;
    });
  }

  it('lists exactly the active recourse-service invoices whose recourse date is in the range (Excel)', async () => {
    const { issuerId, inside, later, noRecourse, other } = await regressSetup();
    const res = await t.app.inject({
      url: '/api/limited/reports/activeRegress?from=2026-04-15&to=2026-05-15&fileType=excel&language=en-US',
      headers: bearer(await t.login('demo')),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      'filename="active-regress-2026-04-15-2026-05-15.xlsx"',
    );
    const [header, ...rows] = await sheetRows(res.rawPayload);
    expect(header?.[5]).toBe('Recourse date');
    const expected = await expectedRegress(issuerId, '2026-04-15', '2026-05-15');
    const numbers = rows.map((r) => String(r[0])).sort();
    expect(numbers).toEqual(expected.map((i) => i.invoiceNumber).sort());
    for (const i of inside) expect(numbers).toContain(i.invoiceNumber);
    for (const i of [...later, ...noRecourse, ...other]) expect(numbers).not.toContain(i.invoiceNumber);
    const first = rows.find((r) => r[0] === inside[0]?.invoiceNumber);
    expect(first?.[4]).toBe('2026-04-01');
    expect(first?.[5]).toBe('2026-05-01');
    expect(first?.[6]).toBe((inside[0]?.remainingMinor ?? 0) / 100);
  });

  it('writes a PDF whose text holds the invoices in range and their total', async () => {
    const { issuerId, inside, later } = await regressSetup();
    const expected = await expectedRegress(issuerId, '2026-04-15', '2026-05-15');
    const res = await t.app.inject({
      url: '/api/limited/reports/activeRegress?from=2026-04-15&to=2026-05-15&fileType=pdf&language=en-US',
      headers: bearer(await t.login('demo')),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('active-regress-2026-04-15-2026-05-15.pdf');
    const { text } = await pdfText(res.rawPayload);
    expect(text).toContain('Invoices at risk of recourse');
    for (const i of inside) expect(text).toContain(i.invoiceNumber);
    for (const i of later) expect(text).not.toContain(i.invoiceNumber);
    expect(text).toContain('2026-05-01');
    for (const i of expected) expect(text).toContain(i.invoiceNumber);
    const total = expected.filter((i) => i.currency === 'SEK').reduce((s, i) => s + i.remainingMinor, 0);
    expect(text.replace(/\s/g, '')).toContain(
      `TotalSEK:${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(total / 100)}`.replace(
        /\s/g,
        '',
      ),
    );
  });

  it('answers 400 reports.wrong_date_range when to is before from', async () => {
    const res = await t.app.inject({
      url: '/api/limited/reports/activeRegress?from=2026-05-15&to=2026-04-15&fileType=pdf',
      headers: bearer(await t.login('demo')),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('reports.wrong_date_range');
  });
});
