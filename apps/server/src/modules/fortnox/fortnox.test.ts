// Over 500 lines on purpose: the Fortnox flows against the sandbox, one scenario per rule of the domain note.
import { desc, eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  DEMO_BANKGIROS,
  importBgmaxFile,
  incomingPaymentsFile,
  TEST_OPERATOR,
} from '../../../test/support/money-flow-testing';
import { MINUTE } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import {
  auditLog,
  fortnoxConnections,
  fortnoxInvoices,
  fortnoxPaymentOutbox,
  invoiceFiles,
  invoiceRows,
  invoices,
  issuers,
  recipients,
  userAbilities,
  users,
} from '../../db/schema';
import { decideCredit } from '../invoices/invoices.service';
import { queueFortnoxPayments, refreshFortnoxConnections, registerFortnoxPayments } from './fortnox.service';

/**
 * Fortnox business invoices through the API, with the real client against the sandbox over HTTP
 * (issue #13): connecting (OAuth2 code flow, state bound to the user, company check), tokens sealed
 * and renewed, a connection Fortnox refuses, and disconnecting.
 */

const t = useTestApp({ resetEach: true });

const sandbox = () => {
  if (!t.fortnoxSandbox) throw new Error('no Fortnox sandbox');
  return t.fortnoxSandbox;
};

/** Starts a connection as `token` and approves it on Fortnox's page; answers the query we come back with. */
async function approve(token: string): Promise<{ state: string; code: string }> {
  const started = await t.call(token, 'POST', '/api/limited/fortnox/connect');
  expect(started.statusCode, started.body).toBe(200);
  const redirectUrl = String(started.json().redirectUrl);
  expect(redirectUrl.startsWith(`${sandbox().url}/oauth-v1/auth?`)).toBe(true);
  const back = await sandbox().approve(redirectUrl);
  expect(`${back.origin}${back.pathname}`).toBe('http://portal.test/invoice/send-business');
  return { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' };
}

async function connect(token: string) {
  const back = await approve(token);
  const res = await t.call(token, 'POST', '/api/limited/fortnox/callback', back);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function issuerId(name: string): Promise<string> {
  const [row] = await t.db.select({ id: issuers.id }).from(issuers).where(eq(issuers.name, name));
  if (!row) throw new Error(name);
  return row.id;
}

async function connectionRow() {
  const [row] = await t.db
    .select()
    .from(fortnoxConnections)
    .where(eq(fortnoxConnections.issuerId, await issuerId('Demo Bygg AB')));
  return row ?? null;
}

async function setting(token: string) {
  return (await t.call(token, 'GET', '/api/self')).json().fortnoxSetting;
}

async function auditEvents() {
  return t.db
    .select({ event: auditLog.event, details: auditLog.details })
    .from(auditLog)
    .where(like(auditLog.event, 'fortnox.%'))
    .orderBy(desc(auditLog.at));
}

describe('connecting Fortnox (OAuth2 authorization code, domain note §2)', () => {
  it('is only for a user with a fortnoxSetting (spec §2)', async () => {
    const token = await t.login('demo-limited');
    for (const [method, url] of [
      ['GET', '/api/limited/fortnox'],
      ['POST', '/api/limited/fortnox/connect'],
      ['GET', '/api/limited/fortnox/invoices'],
    ] as const) {
      const res = await t.call(token, method, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ code: 'fortnox.not_enabled' });
    }
  });

  it('connects: the code becomes sealed tokens, the company is checked, fortnoxSetting turns active', async () => {
    const token = await t.login('demo');
    expect(await setting(token)).toEqual({ active: false });
    const before = (await t.call(token, 'GET', '/api/limited/fortnox')).json();
    expect(before).toMatchObject({ status: 'not_connected', demo: true });
    const connected = await connect(token);
    expect(connected).toMatchObject({
      status: 'active',
      reason: null,
      companyName: 'Demo Bygg AB',
      companyOrganizationNo: '556036-0793',
      demo: true,
    });
    expect(await setting(token)).toEqual({ active: true });
    const row = await connectionRow();
    expect(row?.scope).toBe('invoice customer companyinformation payment');
    // Sealed at rest: AES-GCM under the configured key, never the token itself.
    expect(row?.refreshTokenSealed).toMatch(/^f1\./);
    expect(row?.accessExpiresAt?.getTime()).toBe(t.clock.now().getTime() + 60 * MINUTE);
    expect((await auditEvents()).map((e) => e.event)).toEqual(['fortnox.connected']);
  });

  it('a state is used once; another user’s, an unknown or an expired one changes nothing', async () => {
    const token = await t.login('demo');
    const back = await approve(token);
    // demo-limited gets the setting, so only the state decides.
    await t.db.update(users).set({ fortnoxActive: false }).where(eq(users.username, 'demo-limited'));
    const other = await t.login('demo-limited');
    const foreign = await t.call(other, 'POST', '/api/limited/fortnox/callback', back);
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { code: 'fortnox.state_invalid' }]);
    const unknown = await t.call(token, 'POST', '/api/limited/fortnox/callback', {
      ...back,
      state: 'x'.repeat(43),
    });
    expect(unknown.statusCode).toBe(404);
    expect(await connectionRow()).toBeNull();
    expect((await t.call(token, 'POST', '/api/limited/fortnox/callback', back)).statusCode).toBe(200);
    const replay = await t.call(token, 'POST', '/api/limited/fortnox/callback', back);
    expect(replay.json()).toEqual({ code: 'fortnox.state_invalid' });
    const late = await approve(token);
    t.clock.advance(16 * MINUTE);
    expect((await t.call(token, 'POST', '/api/limited/fortnox/callback', late)).json()).toEqual({
      code: 'fortnox.state_invalid',
    });
    expect((await auditEvents()).map((e) => [e.event, e.details?.reason ?? null])).toEqual([
      ['fortnox.rejected', 'expired_state'],
      ['fortnox.rejected', 'used_state'],
      ['fortnox.connected', null],
      ['fortnox.rejected', 'unknown_state'],
      ['fortnox.rejected', 'foreign_state'],
    ]);
  });

  it('a declined approval says so and connects nothing', async () => {
    const token = await t.login('demo');
    const started = await t.call(token, 'POST', '/api/limited/fortnox/connect');
    const state = new URL(String(started.json().redirectUrl)).searchParams.get('state') ?? '';
    const res = await t.call(token, 'POST', '/api/limited/fortnox/callback', {
      state,
      error: 'access_denied',
    });
    expect([res.statusCode, res.json()]).toEqual([400, { code: 'fortnox.access_denied' }]);
    expect(await connectionRow()).toBeNull();
  });

  it('refuses a Fortnox company that is not the issuer', async () => {
    await t.db.update(users).set({ fortnoxActive: false }).where(eq(users.username, 'demo-unverified'));
    const token = await t.login('demo-unverified');
    const back = await approve(token);
    const res = await t.call(token, 'POST', '/api/limited/fortnox/callback', back);
    expect([res.statusCode, res.json()]).toEqual([409, { code: 'fortnox.company_mismatch' }]);
    const rows = await t.db
      .select()
      .from(fortnoxConnections)
      .where(eq(fortnoxConnections.issuerId, await issuerId('Nystart Måleri AB')));
    expect(rows).toEqual([]);
  });

  it('Fortnox failing at the exchange is 502 fortnox.unavailable', async () => {
    const token = await t.login('demo');
    const back = await approve(token);
    sandbox().setFailures(['token']);
    const res = await t.call(token, 'POST', '/api/limited/fortnox/callback', back);
    expect([res.statusCode, res.json()]).toEqual([502, { code: 'fortnox.unavailable' }]);
  });
});

describe('tokens over time', () => {
  it('renews the access token before it lapses and stores the new refresh token', async () => {
    const token = await t.login('demo');
    await connect(token);
    const first = await connectionRow();
    const refreshes = sandbox().stats().refreshes;
    t.clock.advance(59 * MINUTE + 30_000);
    const res = await t.call(token, 'GET', '/api/limited/fortnox/invoices?page=1');
    expect(res.statusCode, res.body).toBe(200);
    expect(sandbox().stats().refreshes).toBe(refreshes + 1);
    const renewed = await connectionRow();
    expect(renewed?.refreshTokenSealed).not.toBe(first?.refreshTokenSealed);
    expect(renewed?.accessExpiresAt?.getTime()).toBe(t.clock.now().getTime() + 60 * MINUTE);
  });

  it('a connection removed in Fortnox: the page is told to reconnect, fortnoxSetting inactive', async () => {
    const token = await t.login('demo');
    await connect(token);
    sandbox().revokeAll();
    const res = await t.call(token, 'GET', '/api/limited/fortnox/invoices?page=1');
    expect([res.statusCode, res.json()]).toEqual([409, { code: 'fortnox.not_connected' }]);
    expect((await t.call(token, 'GET', '/api/limited/fortnox')).json()).toMatchObject({
      status: 'revoked',
      reason: 'refused',
      companyName: 'Demo Bygg AB',
    });
    expect(await setting(token)).toEqual({ active: false });
    expect((await connectionRow())?.refreshTokenSealed).toBeNull();
    // And it can be connected again.
    expect((await connect(token)).status).toBe('active');
  });

  it('the daily renewal keeps connections alive and ends one Fortnox refuses', async () => {
    const token = await t.login('demo');
    await connect(token);
    const log = { warn: () => undefined };
    expect(await refreshFortnoxConnections(t.app.ctx, log)).toEqual({ renewed: 0, refused: 0, failed: 0 });
    const first = await connectionRow();
    t.clock.advance(21 * 60 * MINUTE);
    expect(await refreshFortnoxConnections(t.app.ctx, log)).toEqual({ renewed: 1, refused: 0, failed: 0 });
    expect((await connectionRow())?.refreshTokenSealed).not.toBe(first?.refreshTokenSealed);
    sandbox().revokeAll();
    t.clock.advance(21 * 60 * MINUTE);
    expect(await refreshFortnoxConnections(t.app.ctx, log)).toEqual({ renewed: 0, refused: 1, failed: 0 });
    expect((await connectionRow())?.reason).toBe('refused');
  });

  it('disconnecting revokes at Fortnox and forgets the tokens', async () => {
    const token = await t.login('demo');
    await connect(token);
    const sealed = (await connectionRow())?.refreshTokenSealed;
    expect(sealed).toBeTruthy();
    const res = await t.call(token, 'POST', '/api/limited/fortnox/disconnect');
    expect(res.json()).toMatchObject({ status: 'revoked', reason: 'disconnected' });
    expect(await setting(token)).toEqual({ active: false });
    const row = await connectionRow();
    expect([row?.accessTokenSealed, row?.refreshTokenSealed]).toEqual([null, null]);
    expect((await t.call(token, 'GET', '/api/limited/fortnox/invoices')).json()).toEqual({
      code: 'fortnox.not_connected',
    });
    expect(
      (await auditEvents()).filter((e) => e.event === 'fortnox.disconnected').map((e) => e.event),
    ).toEqual(['fortnox.disconnected']);
  });
});

describe('business invoices (spec §1 /invoice/send-business)', () => {
  const list = async (token: string, page = 1) => {
    const res = await t.call(token, 'GET', `/api/limited/fortnox/invoices?page=${page}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const takeOver = (token: string, documentNumbers: string[]) =>
    t.call(token, 'POST', '/api/limited/fortnox/invoices/take-over', { documentNumbers });

  it('lists the unpaid invoices as Fortnox pages them, each with whether it can be sent', async () => {
    const token = await t.login('demo');
    await connect(token);
    const first = await list(token);
    expect([first.page, first.totalPages, first.total, first.items.length]).toEqual([1, 2, 34, 25]);
    const byNumber = Object.fromEntries(
      first.items.map((i: { documentNumber: string }) => [i.documentNumber, i]),
    );
    expect(byNumber['2001']).toEqual({
      documentNumber: '2001',
      customerNumber: '1',
      customerName: 'Byggmästarna i Norden AB',
      invoiceDate: '2026-02-27',
      dueDate: '2026-03-29',
      currency: 'SEK',
      totalMinor: 3_555_500,
      balanceMinor: 3_555_500,
      ocr: '20016',
      status: 'available',
      invoiceID: null,
    });
    expect(['2003', '2009', '2011', '2012'].map((n) => byNumber[n]?.status)).toEqual([
      'noxfinans',
      'noxfinans',
      'not_booked',
      'due_passed',
    ]);
    expect(
      first.items.some((i: { documentNumber: string }) => ['2004', '2006'].includes(i.documentNumber)),
    ).toBe(false);
    const second = await list(token, 2);
    expect([second.page, second.items.length]).toEqual([2, 9]);
  });

  it('takes invoices over exactly: rows, VAT, OCR, dates, öre; the customer by organisation number; the PDF', async () => {
    const token = await t.login('demo');
    await connect(token);
    const bygg = await issuerId('Demo Bygg AB');
    const recipientsBefore = await t.db.select().from(recipients).where(eq(recipients.issuerId, bygg));
    const res = await takeOver(token, ['2001', '2005', '2010']);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { ok: boolean; code: string | null }) => [r.ok, r.code])).toEqual([
      [true, null],
      [true, null],
      [true, null],
    ]);
    expect(
      body.invoices.map((i: { invoiceNumber: string; grossMinor: number; ocr: string; sendCode: null }) => [
        i.invoiceNumber,
        i.grossMinor,
        i.ocr,
        i.sendCode,
      ]),
    ).toEqual([
      ['2001', 3_555_500, '20016', null],
      ['2005', 1_625_069, '20057', null],
      ['2010', 6_337_500, '20107', null],
    ]);
    const id2005 = body.results[1].invoiceID as string;
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, id2005));
    expect(inv).toMatchObject({
      state: 1,
      service: 'factoring',
      source: 'fortnox',
      invoiceDate: '2026-02-28',
      dueDate: '2026-03-30',
      netMinor: 1_317_400,
      vatMinor: 307_669,
      grossMinor: 1_625_069,
      recipientContact: 'Karin Berg',
    });
    const rows = await t.db
      .select()
      .from(invoiceRows)
      .where(eq(invoiceRows.invoiceId, id2005))
      .orderBy(invoiceRows.position);
    expect(
      rows.map((r) => [r.articleNumber, r.name, r.quantityMilli, r.unit, r.unitPriceMinor, r.vatBasisPoints]),
    ).toEqual([
      ['PRO-01', 'Projektledning', 12_500, 'h', 95_000, 2500],
      ['LIT-01', 'Facklitteratur', 2000, 'st', 39_950, 600],
      ['MAT-07', 'Mat vid övertid', 4000, 'st', 12_500, 1200],
    ]);
    const files = await t.db.select().from(invoiceFiles).where(eq(invoiceFiles.invoiceId, id2005));
    expect(files.map((f) => [f.role, f.filename, f.contentType])).toEqual([
      ['invoice', 'Faktura 2005.pdf', 'application/pdf'],
    ]);
    // Customer 1 became one recipient (both its invoices); Norrbygg HB (2010) was matched, not added.
    const added = (await t.db.select().from(recipients).where(eq(recipients.issuerId, bygg))).filter(
      (r) => !recipientsBefore.some((b) => b.id === r.id),
    );
    expect(added.map((r) => [r.name, r.organizationNumber, r.city, r.email])).toEqual([
      ['Byggmästarna i Norden AB', '556677-8899', 'Stockholm', 'faktura@byggmastarnainordenab.se'],
    ]);
    const [norrbygg] = await t.db.select().from(invoices).where(eq(invoices.id, body.results[2].invoiceID));
    expect(recipientsBefore.find((r) => r.id === norrbygg?.recipientId)?.name).toBe('Norrbygg HB');
    // The list shows them as pending in the portal.
    const page = await list(token);
    expect(page.items.find((i: { documentNumber: string }) => i.documentNumber === '2001')).toMatchObject({
      status: 'pending',
      invoiceID: body.results[0].invoiceID,
    });
  });

  it('takes each Fortnox invoice over once; once sent it is no longer offered', async () => {
    const token = await t.login('demo');
    await connect(token);
    const first = (await takeOver(token, ['2008'])).json();
    const again = (await takeOver(token, ['2008', '2008'])).json();
    expect(again.results).toEqual(first.results);
    const id = first.results[0].invoiceID as string;
    expect(
      await t.db.select().from(fortnoxInvoices).where(eq(fortnoxInvoices.documentNumber, '2008')),
    ).toHaveLength(1);
    // Sent through the send path of /invoice/send.
    const sent = await t.call(token, 'POST', '/api/limited/invoices/send', { invoiceIDs: [id] });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().results[0]).toMatchObject({ ok: true, ocr: '20081' });
    const page = await list(token);
    expect(page.items.some((i: { documentNumber: string }) => i.documentNumber === '2008')).toBe(false);
    expect(page.hiddenSent).toBe(1);
    expect((await takeOver(token, ['2008'])).json().results[0]).toMatchObject({
      ok: false,
      code: 'fortnox.already_sent',
    });
  });

  it('refuses NoxFinans, paid, unbooked and unknown invoices', async () => {
    const token = await t.login('demo');
    await connect(token);
    const res = (await takeOver(token, ['2003', '2004', '2011', '9999'])).json();
    expect(res.results.map((r: { code: string }) => r.code)).toEqual([
      'fortnox.invoice_unavailable',
      'fortnox.invoice_unavailable',
      'fortnox.invoice_unavailable',
      'fortnox.invoice_not_found',
    ]);
    expect(res.invoices).toEqual([]);
    expect(await t.db.select().from(fortnoxInvoices)).toEqual([]);
  });

  it('Fortnox failing half-way writes nothing', async () => {
    const token = await t.login('demo');
    await connect(token);
    const before = await t.db.select({ id: invoices.id }).from(invoices);
    sandbox().setFailures(['pdf']);
    const res = await takeOver(token, ['2002']);
    expect([res.statusCode, res.json()]).toEqual([502, { code: 'fortnox.unavailable' }]);
    expect(await t.db.select({ id: invoices.id }).from(invoices)).toHaveLength(before.length);
    expect(await t.db.select().from(fortnoxInvoices)).toEqual([]);
    sandbox().setFailures(['list']);
    expect((await t.call(token, 'GET', '/api/limited/fortnox/invoices')).statusCode).toBe(502);
  });

  it('without a connection there is nothing to list or take over', async () => {
    const token = await t.login('demo');
    expect((await takeOver(token, ['2001'])).json()).toEqual({ code: 'fortnox.not_connected' });
  });
});

describe('payments registered back in Fortnox (limited_fortnox_bookkeeping, domain note §9)', () => {
  const log = { warn: () => undefined };

  /**
   * Takes two Fortnox invoices over, sends and approves them (each test its own: the sandbox keeps the
   * payments it was given); answers their OCR references and totals.
   */
  async function sentFortnoxInvoices(token: string, documentNumbers: [string, string]) {
    await connect(token);
    const taken = (
      await t.call(token, 'POST', '/api/limited/fortnox/invoices/take-over', { documentNumbers })
    ).json();
    const ids = taken.results.map((r: { invoiceID: string }) => r.invoiceID) as string[];
    const sent = await t.call(token, 'POST', '/api/limited/invoices/send', { invoiceIDs: ids });
    expect(sent.statusCode, sent.body).toBe(200);
    for (const id of ids)
      await decideCredit(t.db, TEST_OPERATOR, id, { decision: 'approved' }, t.clock.now(), '127.0.0.1');
    // The invoices taken over, by id: another issuer of the demo data may use the same numbers.
    const rows = await t.db.select().from(invoices).where(inArray(invoices.id, ids));
    return documentNumbers.map((n) => {
      const row = rows.find((r) => r.invoiceNumber === n);
      if (!row?.ocr) throw new Error(`invoice ${n} not sent`);
      return { ocr: row.ocr, toPayMinor: row.toPayMinor };
    });
  }

  /** The first invoice part paid (1 000.50), the second in full, on `paymentDate`. */
  const payBoth = (sent: { ocr: string; toPayMinor: number }[], paymentDate = '2026-03-02') =>
    importBgmaxFile(
      t.db,
      incomingPaymentsFile({
        paymentDate,
        deposits: [
          {
            bankgiro: DEMO_BANKGIROS.bygg,
            payments: [
              { reference: sent[0]?.ocr ?? '', amountMinor: 100_050 },
              { reference: sent[1]?.ocr ?? '', amountMinor: sent[1]?.toPayMinor ?? 0 },
            ],
          },
        ],
      }),
      {
        filename: `in-${paymentDate}.bgmax`,
        operatorId: null,
        now: t.clock.now(),
        afterApplied: queueFortnoxPayments,
      },
    );

  const paymentsOf = (documentNumber: string) =>
    sandbox()
      .stats()
      .payments.filter((p) => p.InvoiceNumber === documentNumber)
      .map((p) => [p.Amount, p.PaymentDate]);

  it('queues each payment of a Fortnox invoice once and registers it once', async () => {
    const sent = await sentFortnoxInvoices(await t.login('demo'), ['2001', '2005']);
    const before = sandbox().stats().payments.length;
    const imported = await payBoth(sent);
    expect(imported.matched).toBe(2);
    const queued = await t.db
      .select()
      .from(fortnoxPaymentOutbox)
      .orderBy(fortnoxPaymentOutbox.documentNumber);
    expect(queued.map((q) => [q.documentNumber, q.amountMinor, q.paymentDate, q.status])).toEqual([
      ['2001', 100_050, '2026-03-02', 'pending'],
      ['2005', 1_625_069, '2026-03-02', 'pending'],
    ]);
    expect(await registerFortnoxPayments(t.app.ctx, log)).toEqual({ registered: 2, pending: 0 });
    expect(paymentsOf('2001')).toEqual([[1000.5, '2026-03-02']]);
    expect(paymentsOf('2005')).toEqual([[16250.69, '2026-03-02']]);
    // Run again, and the same file imported again: nothing more reaches Fortnox.
    expect(await registerFortnoxPayments(t.app.ctx, log)).toEqual({ registered: 0, pending: 0 });
    expect((await payBoth(sent)).duplicateFile).toBe(true);
    expect(await registerFortnoxPayments(t.app.ctx, log)).toEqual({ registered: 0, pending: 0 });
    expect(sandbox().stats().payments.length).toBe(before + 2);
  });

  it('a try that timed out is not posted again: it is found among Fortnox’s payments', async () => {
    const sent = await sentFortnoxInvoices(await t.login('demo'), ['2007', '2008']);
    await payBoth(sent, '2026-03-03');
    sandbox().setFailures(['payment_timeout']);
    const first = await registerFortnoxPayments(t.app.ctx, log);
    expect(first.registered).toBe(0);
    const waiting = await t.db.select().from(fortnoxPaymentOutbox);
    expect(waiting.map((w) => [w.status, w.attempts, w.lastError])).toEqual([
      ['pending', 1, 'timeout'],
      ['pending', 1, 'timeout'],
    ]);
    // Fortnox did register them (its answer came too late).
    sandbox().setFailures([]);
    expect(paymentsOf('2007')).toEqual([[1000.5, '2026-03-03']]);
    // Within the claim nothing is tried again; after it, the payments are found, not posted.
    expect(await registerFortnoxPayments(t.app.ctx, log)).toEqual({ registered: 0, pending: 2 });
    t.clock.advance(3 * MINUTE);
    expect(await registerFortnoxPayments(t.app.ctx, log)).toEqual({ registered: 2, pending: 0 });
    expect(paymentsOf('2007')).toEqual([[1000.5, '2026-03-03']]);
    expect(paymentsOf('2008')).toHaveLength(1);
    const done = await t.db.select().from(fortnoxPaymentOutbox);
    expect(done.every((d) => d.status === 'done' && d.fortnoxPaymentNumber !== null)).toBe(true);
  });

  it('a refused try is tried again by the next run', async () => {
    const sent = await sentFortnoxInvoices(await t.login('demo'), ['2010', '2013']);
    await payBoth(sent, '2026-03-04');
    sandbox().setFailures(['payment']);
    expect((await registerFortnoxPayments(t.app.ctx, log)).registered).toBe(0);
    sandbox().setFailures([]);
    expect((await registerFortnoxPayments(t.app.ctx, log)).registered).toBe(2);
    expect(paymentsOf('2010')).toEqual([[1000.5, '2026-03-04']]);
    expect(paymentsOf('2013')).toHaveLength(1);
  });

  it('without limited_fortnox_bookkeeping nothing is queued', async () => {
    const sent = await sentFortnoxInvoices(await t.login('demo'), ['2014', '2015']);
    await t.db.delete(userAbilities).where(eq(userAbilities.ability, 'limited_fortnox_bookkeeping'));
    expect((await payBoth(sent, '2026-03-05')).matched).toBe(2);
    expect(await t.db.select().from(fortnoxPaymentOutbox)).toEqual([]);
  });
});
