import {
  backofficeLoginResponseSchema,
  creditDecisionResponseSchema,
  invoiceDetailSchema,
  invoiceStatus,
  listInvoicesResponseSchema,
  listMessagesResponseSchema,
  listPendingDecisionsResponseSchema,
  listPendingInvoicesResponseSchema,
  REJECTION_REASON_MAX_LENGTH,
} from '@portal/contracts';
import { LOCALES, resources, translate } from '@portal/i18n';
import { and, count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_ID } from '../../../test/support/route-samples';
import { passwordStep } from '../../../test/support/sign-in';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { EXIT, runBackoffice } from '../../cli/backoffice';
import {
  auditLog,
  invoiceEvents,
  invoices,
  messages,
  operatorSessions,
  postings,
  sessions,
} from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import { checkBooks } from '../../modules/money/money.service';

const t = useTestApp({ resetEach: true });

const operatorLogin = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/backoffice/login', payload: { username, password } });

async function auditEvents(prefix: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(like(auditLog.event, `${prefix}%`));
}

/** The audit row of a decision on one invoice (the demo seed's own decisions are audited too). */
async function decisionAudit(event: string, invoiceId: string) {
  return (await auditEvents(event)).filter((a) => a.details?.invoiceId === invoiceId);
}

/** What a decision writes: counted, to prove that a refused one writes nothing. */
async function footprint(invoiceId: string) {
  const [invoice] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  const [events] = await t.db.select({ n: count() }).from(invoiceEvents);
  const [msgs] = await t.db.select({ n: count() }).from(messages);
  const [audits] = await t.db.select({ n: count() }).from(auditLog);
  return { invoice, events: events?.n, messages: msgs?.n, audits: audits?.n };
}

/** The oldest invoice of Demo Bygg AB awaiting a credit decision, from the back office's own list. */
async function awaitingInvoice(operator: string) {
  const res = await t.app.inject({
    url: '/api/backoffice/invoices/pending-decision?pageSize=100',
    headers: bearer(operator),
  });
  expect(res.statusCode, res.body).toBe(200);
  const list = listPendingDecisionsResponseSchema.parse(res.json());
  const item = list.items.find((i) => i.issuerName === 'Demo Bygg AB');
  if (!item) throw new Error('the demo data has no invoice of Demo Bygg AB in state 9');
  return item;
}

const decide = (operator: string, id: string, action: 'approve' | 'reject', payload?: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/backoffice/invoices/${id}/${action}`,
    headers: bearer(operator),
    ...(payload ? { payload } : {}),
  });

const asDemo = async (url: string) =>
  t.app.inject({ url, headers: bearer(await t.login('demo')) }).then((r) => {
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as unknown;
  });

describe('operator sign-in', () => {
  it('signs in the demo operator, whatever the case of the username, and audits it', async () => {
    const res = await operatorLogin('OPERATOR', DEMO_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const body = backofficeLoginResponseSchema.parse(res.json());
    expect(body.operator).toMatchObject({ username: 'operator', name: 'Olle Operatör' });
    expect(await t.db.select().from(operatorSessions)).toHaveLength(1);
    const [ok] = await auditEvents('backoffice.login.ok');
    expect(ok).toMatchObject({ operatorId: body.operator?.operatorID, userId: null, username: 'operator' });
  });

  it('refuses a wrong password and a customer’s credentials, auditing the failure', async () => {
    const wrong = await operatorLogin('operator', 'Fel-lösen-1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 'auth.invalid_credentials' });
    const customer = await operatorLogin('demo', DEMO_PASSWORD);
    expect(customer.statusCode).toBe(401);
    expect(customer.json()).toEqual({ code: 'auth.invalid_credentials' });
    expect((await auditEvents('backoffice.login.failed')).map((a) => a.username)).toEqual([
      'operator',
      'demo',
    ]);
    // And the operator is no customer user.
    const asCustomer = await passwordStep(t, 'operator');
    expect(asCustomer.statusCode).toBe(401);
  });

  it('throttles failed attempts per username like the customer sign-in, apart from customer names', async () => {
    t.throttle.perUsername = 2;
    for (let i = 0; i < 2; i++) expect((await operatorLogin('demo', 'Fel-lösen-1')).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await operatorLogin('operator', 'Fel-lösen-1')).statusCode).toBe(401);
    const throttled = await operatorLogin('operator', DEMO_PASSWORD);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ code: 'auth.too_many_attempts' });
    expect(throttled.headers['retry-after']).toBeDefined();
    expect(await auditEvents('backoffice.login.throttled')).toHaveLength(1);
    // Failures against the operator name `demo` do not lock out the customer `demo`.
    expect(await t.login('demo')).toBeTruthy();
  });

  it('ends the session at logout', async () => {
    const token = await t.loginOperator();
    const out = await t.app.inject({ method: 'POST', url: '/api/backoffice/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({
      url: '/api/backoffice/invoices/pending-decision',
      headers: bearer(token),
    });
    expect(after.statusCode).toBe(401);
  });
});

describe('tokens of one kind never open the other kind’s routes', () => {
  it('refuses a customer token on the back office and an operator token on the portal', async () => {
    const customer = await t.login('demo');
    const operator = await t.loginOperator();
    const pending = await t.app.inject({
      url: '/api/backoffice/invoices/pending-decision',
      headers: bearer(customer),
    });
    expect(pending.statusCode).toBe(401);
    expect(pending.json()).toEqual({ code: 'auth.unauthorized' });
    const self = await t.app.inject({ url: '/api/self', headers: bearer(operator) });
    expect(self.statusCode).toBe(401);
    expect(self.json()).toEqual({ code: 'auth.unauthorized' });
    // The stores are apart: the customer token is in `sessions` only, the operator's in `operator_sessions`.
    expect(await t.db.select().from(sessions)).toHaveLength(1);
    expect(await t.db.select().from(operatorSessions)).toHaveLength(1);
  });
});

describe('the credit decision', () => {
  it('lists every issuer’s invoices in state 9, oldest sent first, with issuer, recipient and amounts', async () => {
    const operator = await t.loginOperator();
    const res = await t.app.inject({
      url: '/api/backoffice/invoices/pending-decision?pageSize=100',
      headers: bearer(operator),
    });
    const list = listPendingDecisionsResponseSchema.parse(res.json());
    const [inState9] = await t.db.select({ n: count() }).from(invoices).where(eq(invoices.state, 9));
    expect(list.total).toBe(inState9?.n);
    expect(list.total).toBeGreaterThan(0);
    expect(list.items.length).toBe(Math.min(100, list.total));
    const sent = list.items.map((i) => i.sentAt ?? '');
    expect(sent).toEqual([...sent].sort());
    expect(list.items[0]).toMatchObject({
      issuerName: expect.any(String),
      recipientName: expect.any(String),
      grossMinor: expect.any(Number),
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const paged = listPendingDecisionsResponseSchema.parse(
      (
        await t.app.inject({
          url: '/api/backoffice/invoices/pending-decision?page=2&pageSize=1',
          headers: bearer(operator),
        })
      ).json(),
    );
    expect(paged.items.map((i) => i.invoiceID)).toEqual(list.items.slice(1, 2).map((i) => i.invoiceID));
  });

  it('approves 9 → 2 with event 3, an unread message from us to the customer and an audit row', async () => {
    const operator = await t.loginOperator();
    const item = await awaitingInvoice(operator);
    const before = listMessagesResponseSchema.parse(await asDemo('/api/limited/messages'));

    const res = await decide(operator, item.invoiceID, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    expect(creditDecisionResponseSchema.parse(res.json())).toEqual({
      invoiceID: item.invoiceID,
      state: 2,
      decision: 'approved',
    });

    const detail = invoiceDetailSchema.parse(await asDemo(`/api/limited/invoices/${item.invoiceID}`));
    expect(detail).toMatchObject({ state: 2, decision: 'approved' });
    expect(detail.events.at(-1)).toMatchObject({ event: 3, text: '' });

    const after = listMessagesResponseSchema.parse(await asDemo('/api/limited/messages'));
    expect(after.unread).toBe(before.unread + 1);
    expect(after.items[0]).toMatchObject({
      invoiceID: item.invoiceID,
      invoiceNumber: item.invoiceNumber,
      authorID: null,
      // One name for our side, not the operator's (issue #11).
      author: 'Kundservice',
      messageType: '4',
      read: false,
      title: `Faktura ${item.invoiceNumber} är godkänd`,
    });

    const [row] = await decisionAudit('backoffice.invoice.approved', item.invoiceID);
    expect(row).toMatchObject({ username: 'operator', issuerId: item.issuerID });
    expect(row?.details).toMatchObject({ invoiceId: item.invoiceID, fromState: 9, toState: 2 });

    // Bought: the recipient owes us the amount to pay and we owe it to the issuer (docs/MONEY.md).
    const booked = await t.db
      .select({ account: postings.account, amountMinor: postings.amountMinor, kind: postings.kind })
      .from(postings)
      .where(eq(postings.invoiceId, item.invoiceID));
    expect(booked).toEqual(
      expect.arrayContaining([
        { account: 'receivable', amountMinor: item.toPayMinor, kind: 'recognise' },
        { account: 'issuer_payable', amountMinor: -item.toPayMinor, kind: 'recognise' },
      ]),
    );
    expect(booked).toHaveLength(2);
    expect((await checkBooks(t.db, item.issuerID)).map((v) => v.id)).not.toContain(item.invoiceID);

    // A second approve is refused and changes nothing.
    const written = await footprint(item.invoiceID);
    const again = await decide(operator, item.invoiceID, 'approve');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'invoices.invalid_transition' });
    expect(await footprint(item.invoiceID)).toEqual(written);
  });

  it('rejects 9 → 1 with decision rejected; the reason is on the timeline and in the message', async () => {
    const operator = await t.loginOperator();
    const item = await awaitingInvoice(operator);
    const reason = 'Mottagaren har betalningsanmärkningar; skicka gärna med en borgen.';
    const res = await decide(operator, item.invoiceID, 'reject', { reason: `  ${reason} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ invoiceID: item.invoiceID, state: 1, decision: 'rejected' });

    const detail = invoiceDetailSchema.parse(await asDemo(`/api/limited/invoices/${item.invoiceID}`));
    expect(detail).toMatchObject({ state: 1, decision: 'rejected' });
    expect(detail.events.at(-1)).toMatchObject({ event: 2, text: reason });

    const unread = listMessagesResponseSchema.parse(await asDemo('/api/limited/messages?unreadOnly=true'));
    const message = unread.items.find((m) => m.invoiceID === item.invoiceID);
    expect(message?.title).toBe(`Faktura ${item.invoiceNumber} godkändes inte`);
    expect(message?.message).toContain(`Skäl: ${reason}`);

    const [row] = await decisionAudit('backoffice.invoice.rejected', item.invoiceID);
    expect(row?.details).toMatchObject({ invoiceId: item.invoiceID, reason, toState: 1 });

    const again = await decide(operator, item.invoiceID, 'reject', { reason });
    expect(again.statusCode).toBe(409);
  });

  it('a rejected invoice answers rejected with its reason in the history, the send list and the detail (issue #11)', async () => {
    const operator = await t.loginOperator();
    const item = await awaitingInvoice(operator);
    const reason = 'Mottagaren saknar kreditlimit.';
    expect((await decide(operator, item.invoiceID, 'reject', { reason })).statusCode).toBe(200);
    const expected = { state: 1, decision: 'rejected', rejectionReason: reason };

    const rejected = listInvoicesResponseSchema.parse(
      await asDemo('/api/limited/invoices?filter=rejected&pageSize=100'),
    );
    expect(rejected.items.find((i) => i.invoiceID === item.invoiceID)).toMatchObject(expected);
    // Every invoice of the rejected tab shows "Rejected", never "Not sent" (the demo data has more).
    expect(rejected.items.length).toBeGreaterThan(1);
    for (const invoice of rejected.items) {
      expect(invoiceStatus(invoice)).toBe('rejected');
      expect(invoice.rejectionReason).toBeTruthy();
    }
    const all = listInvoicesResponseSchema.parse(
      await asDemo(`/api/limited/invoices?search=${item.invoiceNumber}`),
    );
    expect(all.items.find((i) => i.invoiceID === item.invoiceID)).toMatchObject(expected);
    const pending = listPendingInvoicesResponseSchema.parse(
      await asDemo(`/api/limited/invoices/pending?search=${item.invoiceNumber}`),
    );
    expect(pending.items.find((i) => i.invoiceID === item.invoiceID)).toMatchObject(expected);
    const detail = invoiceDetailSchema.parse(await asDemo(`/api/limited/invoices/${item.invoiceID}`));
    expect(detail).toMatchObject(expected);
    expect(invoiceStatus(detail)).toBe('rejected');

    // Sent again, it carries neither the decision nor the reason; never rejected ones carry none. It
    // must be due at least the minimum days after today to go into financing (as in the next test).
    await t.db.update(invoices).set({ dueDate: '2026-04-01' }).where(eq(invoices.id, item.invoiceID));
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/send',
      headers: bearer(await t.login('demo')),
      payload: { invoiceIDs: [item.invoiceID] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const again = invoiceDetailSchema.parse(await asDemo(`/api/limited/invoices/${item.invoiceID}`));
    expect(again).toMatchObject({ state: 9, decision: null, rejectionReason: null });
    const paid = listInvoicesResponseSchema.parse(await asDemo('/api/limited/invoices?filter=paid'));
    expect(paid.items.length).toBeGreaterThan(0);
    for (const invoice of paid.items) expect(invoice.rejectionReason).toBeNull();
  });

  it('a rejected invoice sent again awaits a new decision and leaves the rejected filter', async () => {
    const operator = await t.loginOperator();
    const item = await awaitingInvoice(operator);
    // Sent again it goes into financing again, so it must be due at least the minimum days after today
    // (2026-03-02); the demo's recent invoices may be due sooner (docs/INVOICES.md "Due dates when sending").
    await t.db.update(invoices).set({ dueDate: '2026-04-01' }).where(eq(invoices.id, item.invoiceID));
    expect((await decide(operator, item.invoiceID, 'reject', { reason: 'Saknar borgen.' })).statusCode).toBe(
      200,
    );
    const ids = async (filter: string) =>
      listInvoicesResponseSchema
        .parse(await asDemo(`/api/limited/invoices?filter=${filter}&search=${item.invoiceNumber}`))
        .items.map((i) => i.invoiceID);
    expect(await ids('rejected')).toContain(item.invoiceID);

    const demo = await t.login('demo');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/send',
      headers: bearer(demo),
      payload: { invoiceIDs: [item.invoiceID] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const detail = invoiceDetailSchema.parse(await asDemo(`/api/limited/invoices/${item.invoiceID}`));
    expect(detail).toMatchObject({ state: 9, decision: null });
    expect(await ids('rejected')).not.toContain(item.invoiceID);
    expect(await ids('pendingApproval')).toContain(item.invoiceID);
    // The earlier rejection stays on the timeline.
    expect(detail.events.map((e) => e.event)).toContain(2);
  });

  it('needs a reason of at most 500 characters to reject, writing nothing otherwise', async () => {
    const operator = await t.loginOperator();
    const item = await awaitingInvoice(operator);
    const before = await footprint(item.invoiceID);
    for (const payload of [{}, { reason: '   ' }, { reason: 'x'.repeat(REJECTION_REASON_MAX_LENGTH + 1) }]) {
      const res = await decide(operator, item.invoiceID, 'reject', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await footprint(item.invoiceID)).toEqual(before);
    const longest = await decide(operator, item.invoiceID, 'reject', {
      reason: 'x'.repeat(REJECTION_REASON_MAX_LENGTH),
    });
    expect(longest.statusCode).toBe(200);
  });

  it('answers 409 for an invoice in another state and 404 for an unknown id, writing nothing', async () => {
    const operator = await t.loginOperator();
    const [pending] = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.state, 1)))
      .limit(1);
    if (!pending) throw new Error('the demo data has no pending invoice');
    const before = await footprint(pending.id);
    for (const [action, payload] of [
      ['approve', undefined],
      ['reject', { reason: 'Nej.' }],
    ] as const) {
      const res = await decide(operator, pending.id, action, payload);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: 'invoices.invalid_transition' });
    }
    expect(await footprint(pending.id)).toEqual(before);

    const unknown = await decide(operator, SAMPLE_ID, 'approve');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'invoices.not_found' });
  });
});

describe('the texts of our credit decision messages', () => {
  it('exist in every language with the same placeholders, the rejection with its reason', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const reference = JSON.stringify(resources['sv-SE'].notices);
    for (const locale of LOCALES) {
      expect(Object.keys(resources[locale].notices)).toEqual(Object.keys(resources['sv-SE'].notices));
      for (const decision of ['approved', 'rejected'])
        for (const part of ['title', 'text']) {
          const key = `creditDecision.${decision}.${part}`;
          const text = translate(locale, 'notices', key);
          expect(text, `${locale} ${key}`).not.toBe(key);
          expect(placeholders(text), `${locale} ${key}`).toEqual(
            placeholders(translate('sv-SE', 'notices', key)),
          );
        }
      expect(translate(locale, 'notices', 'creditDecision.rejected.text', { reason: 'R-1' })).toContain(
        'R-1',
      );
    }
    expect(reference).toContain('{{reason}}');
  });
});

describe('the back-office CLI against a listening server', () => {
  let url: string;
  beforeAll(async () => {
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  async function cli(args: string[], env: Record<string, string | undefined> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runBackoffice(
      [...args, '--url', url],
      { BACKOFFICE_USER: 'operator', BACKOFFICE_PASSWORD: DEMO_PASSWORD, ...env },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('prints the invoices awaiting a decision as a table, approves one, and refuses a repeat', async () => {
    const [first] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.state, 9))
      .orderBy(invoices.sentAt, invoices.id)
      .limit(1);
    if (!first) throw new Error('no invoice in state 9');
    const pending = await cli(['pending', '--page-size', '100']);
    expect(pending.err).toBe('');
    expect(pending.code).toBe(EXIT.ok);
    const lines = pending.out.split('\n');
    expect(lines[0]).toMatch(/^INVOICE ID\s+NUMBER\s+ISSUER\s+RECIPIENT\s+AMOUNT/);
    expect(lines[1]).toContain(first.id);
    expect(lines[1]).toContain(first.invoiceNumber);
    const [total] = await t.db.select({ n: count() }).from(invoices).where(eq(invoices.state, 9));
    expect(pending.out).toContain(`of ${total?.n} awaiting a decision.`);

    const approved = await cli(['approve', first.id]);
    expect(approved).toEqual({
      code: EXIT.ok,
      out: `Invoice ${first.id} approved; it is now in state 2.`,
      err: '',
    });
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, first.id));
    expect(after).toMatchObject({ state: 2, decision: 'approved' });

    const again = await cli(['approve', first.id]);
    expect(again.code).toBe(EXIT.refused);
    expect(again.err).toContain('409 invoices.invalid_transition');
    // Each command signs out again: no operator session stays open.
    const open = await t.db.select().from(operatorSessions);
    expect(open.every((s) => s.revokedAt !== null)).toBe(true);
  });

  it('rejects with a reason and explains usage, sign-in and connection errors by exit code', async () => {
    const [first] = await t.db.select().from(invoices).where(eq(invoices.state, 9)).limit(1);
    if (!first) throw new Error('no invoice in state 9');
    expect((await cli(['reject', first.id])).code).toBe(EXIT.usage);
    const rejected = await cli(['reject', first.id, '--reason', 'Ingen kreditlimit för mottagaren.']);
    expect(rejected.out).toBe(`Invoice ${first.id} rejected; it is now in state 1.`);
    expect((await cli(['frobnicate'])).code).toBe(EXIT.usage);
    expect((await cli(['approve', 'not-a-uuid'])).code).toBe(EXIT.usage);
    expect((await cli(['pending'], { BACKOFFICE_PASSWORD: undefined })).code).toBe(EXIT.usage);
    const wrong = await cli(['pending'], { BACKOFFICE_PASSWORD: 'Fel-lösen-1' });
    expect(wrong.code).toBe(EXIT.auth);
    expect(wrong.err).toContain('auth.invalid_credentials');
    const unknown = await cli(['approve', SAMPLE_ID]);
    expect(unknown.code).toBe(EXIT.refused);
    expect(unknown.err).toContain('invoices.not_found');
    const down = await runBackoffice(
      ['pending', '--url', 'http://127.0.0.1:9'],
      { BACKOFFICE_USER: 'operator', BACKOFFICE_PASSWORD: DEMO_PASSWORD },
      { out: () => undefined, err: () => undefined },
    );
    expect(down).toBe(EXIT.unreachable);
  });
});
