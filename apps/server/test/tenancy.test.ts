import { randomUUID } from 'node:crypto';
import { buildPath, getSelfResponseSchema, ROUTES } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP } from '@portal/domain/money-flow';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { rows } from '../src/db/migrate';
import { issuerDebtClaims, issuers, messages, users } from '../src/db/schema';
import { runDailyJob, runPayout } from '../src/modules/money/money.service';
import { sentInvoices } from './support/money';
import {
  ROUTE_SAMPLES,
  SAMPLE_ID,
  SESSION_OPERATIONS,
  type SessionOperationId,
  VALID_ARTICLE_BODY,
  VALID_INVOICE_BODY,
  VALID_ISSUER_BODY,
  VALID_PLAN_BODY,
  VALID_RECIPIENT_BODY,
} from './support/route-samples';
import { bearer } from './support/test-app';
import { useTestApp } from './support/use-test-app';

const t = useTestApp({ resetEach: true });

async function issuerId(name: string): Promise<string> {
  const [row] = await t.db.select({ id: issuers.id }).from(issuers).where(eq(issuers.name, name));
  if (!row) throw new Error(`no issuer ${name}`);
  return row.id;
}

/** Every row that belongs to an issuer: its own row and the rows of every table with an issuer_id. */
async function rowsOf(id: string): Promise<Record<string, unknown>> {
  const tables = rows<{ table_name: string }>(
    await t.db.execute(sql`select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'issuer_id' order by table_name`),
  ).map((r) => r.table_name);
  const snapshot: Record<string, unknown> = {
    issuers: await t.db.select().from(issuers).where(eq(issuers.id, id)),
  };
  for (const table of tables) {
    const found = rows<{ data: unknown }>(
      await t.db.execute(
        sql`select coalesce(jsonb_agg(to_jsonb(x) order by to_jsonb(x)::text), '[]'::jsonb) as data
          from ${sql.identifier(table)} x where x.issuer_id = ${id}`,
      ),
    );
    snapshot[table] = found[0]?.data;
  }
  return snapshot;
}

/** Every `id` in a snapshot of rowsOf(). */
function idsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => (k === 'id' && typeof v === 'string' ? [v] : idsIn(v)));
  return [];
}

/** Creates one object of each kind for Demo Bygg AB, by resource name in the path (`recipients`, ...). */
async function createByggObjects(token: string): Promise<Record<string, string>> {
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
    expect(res.statusCode, url).toBe(200);
    return res.json() as Record<string, string>;
  };
  const recipient = await post('/api/limited/recipients', {
    ...VALID_RECIPIENT_BODY,
    name: 'Hemlig Kund AB',
  });
  const article = await post('/api/limited/articles', {
    ...VALID_ARTICLE_BODY,
    articleNumber: 'HEMLIG-1',
    name: 'Hemlig tjänst',
    recipientID: recipient.recipientID,
  });
  const invoice = await post('/api/limited/invoices', {
    ...VALID_INVOICE_BODY,
    invoiceNumber: '987654',
    recipientID: recipient.recipientID,
    rows: [
      { name: 'Hemlig rad', quantityMilli: 1000, unit: 'st', unitPriceMinor: 4_321, vatBasisPoints: 2500 },
    ],
  });
  const plan = await post('/api/limited/installmentplans', {
    ...VALID_PLAN_BODY,
    description: 'Hemlig avbetalning',
    recipientID: recipient.recipientID,
  });
  const pdf = await PDFDocument.create();
  pdf
    .addPage()
    .drawText('Hemlig bilaga', { x: 50, y: 700, font: await pdf.embedFont(StandardFonts.Helvetica) });
  const uploaded = async (role: 'attachment' | 'invoice', filename: string) => {
    const res = await t.call(
      token,
      'POST',
      `/api/limited/files?role=${role}&filename=${filename}`,
      Buffer.from(await pdf.save()),
      { 'content-type': 'application/pdf' },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { fileID: string };
  };
  const file = await uploaded('attachment', 'hemlig.pdf');
  const invoiceFile = await uploaded('invoice', 'hemlig-faktura.pdf');
  const [message] = await t.db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.issuerId, await issuerId('Demo Bygg AB')))
    .limit(1);
  // A settlement of Demo Bygg AB: an invoice sent, approved and paid out.
  await sentInvoices(t, { n: 1, approve: true });
  const payout = await runPayout(t.db, { payoutDate: '2026-03-02', now: t.clock.now(), operatorId: null });
  const bygg = await issuerId('Demo Bygg AB');
  const settlement = payout.settlements.find((s) => s.issuerId === bygg);
  // A debt claim of Demo Bygg AB: the daily job 60 days after the invoice's due date charges it back
  // (with the demo's unpaid ones), no payouts set it off, and the job claims the debt (its postings
  // are dated by the test's clock, months before that day).
  const day = addDays('2026-04-01', 60);
  await runDailyJob(t.db, { date: day, now: t.clock.now(), referenceRateBp: DEFAULT_REFERENCE_RATE_BP });
  const [claim] = await t.db.select().from(issuerDebtClaims).where(eq(issuerDebtClaims.issuerId, bygg));
  return {
    debtclaims: claim?.id ?? '',
    transfercosts: settlement?.settlementId ?? '',
    recipients: String(recipient.recipientID),
    articles: String(article.articleID),
    invoices: String(invoice.invoiceID),
    files: file.fileID,
    attachments: file.fileID,
    invoiceFiles: invoiceFile.fileID,
    messages: message?.id ?? '',
    installmentplans: String(plan.installmentPlanID),
  };
}

/** The resource an id belongs to, from the name it goes by: `:id` after `/invoices/`, `recipientID`, `invoiceIDs`. */
function ownedId(owned: Record<string, string>, resource: string): string {
  const id = owned[resource];
  if (!id) throw new Error(`tenancy test: give Demo Bygg AB an object of ${resource} in createByggObjects`);
  return id;
}

/** Swedish VAT rates of the samples and the Finnish ones of Annan Firma Oy, so bodies pass its checks. */
const FINNISH_RATE: Record<number, number> = { 2500: 2550, 1200: 1350, 600: 1000, 0: 0 };

/**
 * The sample body as Annan Firma Oy would send it (euros, Finnish VAT rates), with every sample id
 * replaced by the id of Demo Bygg AB's object of that kind.
 */
function replaceSampleIds(value: unknown, owned: Record<string, string>, key = ''): unknown {
  if (value === SAMPLE_ID) return ownedId(owned, `${key.replace(/IDs?$/, '')}s`);
  if (key === 'currency' && value === 'SEK') return 'EUR';
  if (key === 'vatBasisPoints' && typeof value === 'number') return FINNISH_RATE[value] ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceSampleIds(v, owned, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceSampleIds(v, owned, k)]));
  return value;
}

/** The sample call of `op` with every sample id replaced by the id of Demo Bygg AB's object of that kind. */
function foreignRequest(op: SessionOperationId, token: string, owned: Record<string, string>): InjectOptions {
  const def = ROUTES[op];
  const sample = ROUTE_SAMPLES[op];
  const params = Object.fromEntries(
    Object.entries(sample.params ?? {}).map(([name, value]) => {
      const resource = new RegExp(`/([a-z-]+)/:${name}\\b`).exec(def.path)?.[1] ?? name;
      return [name, value === SAMPLE_ID ? ownedId(owned, resource) : value];
    }),
  );
  const path = buildPath(def.path, params);
  return {
    method: def.method,
    url: sample.query ? `${path}?${sample.query}` : path,
    headers: bearer(token),
    ...(sample.payload
      ? { payload: replaceSampleIds(sample.payload, owned) as Record<string, unknown> }
      : {}),
  };
}

describe('another issuer (demo-other, Annan Firma Oy)', () => {
  it('sees none of Demo Bygg AB’s data on any session route and changes none of it', async () => {
    const byggId = await issuerId('Demo Bygg AB');
    const byggToken = await t.login('demo');
    const owned = await createByggObjects(byggToken);
    const byggUsers = await t.db.select().from(users).where(eq(users.issuerId, byggId));
    const before = await rowsOf(byggId);
    const secrets = [
      'Demo Bygg',
      'demobygg',
      'Hemlig',
      'HEMLIG',
      '987654',
      ...byggUsers.map((u) => u.email),
      // The id of every row Demo Bygg AB owns: its issuer, users, recipients, invoices, messages, ...
      ...idsIn(before),
    ];
    expect(secrets).toEqual(expect.arrayContaining([byggId, ...Object.values(owned)]));

    const token = await t.login('demo-other');
    // Ids that name nothing, in place of Demo Bygg AB's: a foreign object must look like a missing one.
    const missing = Object.fromEntries(Object.keys(owned).map((k) => [k, randomUUID()]));
    const answered: string[] = [];
    for (const op of SESSION_OPERATIONS) {
      const request = foreignRequest(op, token, owned);
      const res = await t.app.inject(request);
      expect(res.statusCode, op).toBeLessThan(500);
      expect(res.statusCode, op).not.toBe(401);
      const sent = JSON.stringify(request);
      const unsent = secrets.filter((s) => !sent.includes(s));
      expect(
        unsent.filter((s) => res.body.includes(s)),
        `${op} shows Demo Bygg AB's data`,
      ).toEqual([]);
      // A list without the sample's search and filters: everything the caller may see.
      if (request.method === 'GET' && String(request.url).includes('?')) {
        const plain = await t.app.inject({ ...request, url: String(request.url).split('?')[0] });
        expect(
          unsent.filter((s) => plain.body.includes(s)),
          `${op} without a query shows Demo Bygg AB's data`,
        ).toEqual([]);
      }
      const foreignIds = Object.values(owned).filter((id) => sent.includes(id));
      if (foreignIds.length > 0) {
        const control = await t.app.inject(foreignRequest(op, token, missing));
        const unmask = (body: string) =>
          Object.keys(owned).reduce((b, k) => b.replaceAll(owned[k] ?? '', missing[k] ?? ''), body);
        expect(res.statusCode, `${op}: foreign vs missing`).toBe(control.statusCode);
        expect(unmask(res.body), `${op}: foreign vs missing`).toBe(control.body);
      }
      answered.push(op);
    }
    expect(answered).toEqual(SESSION_OPERATIONS);

    expect(await rowsOf(byggId)).toEqual(before);
    // Demo Bygg AB's sessions are untouched by the other issuer's password change and logout.
    expect((await t.call(byggToken, 'GET', '/api/self')).statusCode).toBe(200);
  });

  it('cannot slip Demo Bygg AB’s invoice into a PDF of its own invoices', async () => {
    const owned = await createByggObjects(await t.login('demo'));
    const token = await t.login('demo-other');
    const recipient = await t.call(token, 'POST', '/api/limited/recipients', {
      ...VALID_RECIPIENT_BODY,
      name: 'Oma Asiakas Oy',
    });
    // Annan Firma Oy's own invoice: the sample body in euros with Finnish VAT, to its own recipient.
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(token),
      payload: replaceSampleIds(
        { ...VALID_INVOICE_BODY, invoiceNumber: 'OMA-1', recipientID: SAMPLE_ID },
        { recipients: String(recipient.json().recipientID) },
      ) as Record<string, unknown>,
    });
    expect(own.statusCode, own.body).toBe(200);
    const ownId = String(own.json().invoiceID);
    const pdfOf = (invoiceIDs: string[]) =>
      t.call(token, 'POST', '/api/limited/invoices/pdf', { invoiceIDs });
    expect((await pdfOf([ownId])).statusCode).toBe(200);
    for (const order of [
      [ownId, ownedId(owned, 'invoices')],
      [ownedId(owned, 'invoices'), ownId],
    ]) {
      const res = await pdfOf(order);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'invoices.not_found' });
      // Exactly the answer of an id that names nothing.
      expect((await pdfOf([ownId, randomUUID()])).body).toBe(res.body);
    }
  });

  it('gets its own issuer and only its own messages from /api/self', async () => {
    const res = await t.app.inject({
      url: '/api/self',
      headers: { ...bearer(await t.login('demo-other')), 'accept-language': 'fi-FI' },
    });
    const me = getSelfResponseSchema.parse(res.json());
    expect(me.issuer.name).toBe('Annan Firma Oy');
    expect(me.issuer.issuerID).toBe(await issuerId('Annan Firma Oy'));
    expect(me.messages.map((m) => m.title)).toEqual(['Tervetuloa asiakasportaaliin']);
  });

  it('saves only its own issuer row', async () => {
    const byggId = await issuerId('Demo Bygg AB');
    const nystartId = await issuerId('Nystart Måleri AB');
    const annanId = await issuerId('Annan Firma Oy');
    const byggBefore = await rowsOf(byggId);
    const nystartBefore = await rowsOf(nystartId);

    const token = await t.login('demo-other');
    const res = await t.call(token, 'POST', '/api/limited/issuerInfo', {
      ...VALID_ISSUER_BODY,
      name: 'Annan Firma Uusi Oy',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ issuerID: annanId, name: 'Annan Firma Uusi Oy', country: 'FI' });

    const [annan] = await t.db.select().from(issuers).where(eq(issuers.id, annanId));
    expect(annan).toMatchObject({ name: 'Annan Firma Uusi Oy', organizationNo: '0737546-2' });
    const byggAfter = await rowsOf(byggId);
    expect(byggAfter.issuers).toEqual(byggBefore.issuers);
    expect((byggAfter.issuers as { name: string }[])[0]?.name).toBe('Demo Bygg AB');
    expect(await rowsOf(nystartId)).toEqual(nystartBefore);
  });

  it('is equally invisible to Demo Bygg AB', async () => {
    const res = await t.app.inject({ url: '/api/self', headers: bearer(await t.login('demo')) });
    expect(res.statusCode).toBe(200);
    for (const secret of ['Annan Firma', 'annanfirma', 'Tervetuloa', 'Asiakaspalvelu'])
      expect(res.body).not.toContain(secret);
  });
});
