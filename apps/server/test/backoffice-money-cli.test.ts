import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAN_STATE } from '@portal/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runBackoffice } from '../src/cli/backoffice';
import {
  installmentPlans,
  invoices,
  issuerFees,
  issuers,
  payments,
  postings,
  recipients,
  settlementRows,
  settlements,
} from '../src/db/schema';
import { DEMO_BANKGIROS, DEMO_OPERATOR } from '../src/db/seed/demo';
import { todayIn } from '../src/lib/today';
import type { IncomingPayment } from '../src/modules/money/money.service';
import { backofficeCli } from './support/backoffice-cli';
import { freshIssuer, paidToBygg, sentInvoices } from './support/money';
import { VALID_PLAN_BODY } from './support/route-samples';
import { useTestApp } from './support/use-test-app';

// The back-office CLI's money commands against a listening test app, as an operator runs them.
const t = useTestApp({ resetEach: true });
let base: string;
const dir = mkdtempSync(join(tmpdir(), 'bo-money-cli-'));

beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

const cli = (...argv: string[]) => backofficeCli(base, ...argv);

async function bygg() {
  const [issuer] = await t.db.select().from(issuers).where(eq(issuers.name, 'Demo Bygg AB'));
  if (!issuer) throw new Error('no Demo Bygg AB');
  return issuer;
}

const today = () => todayIn(t.clock.now());

/** A BGMAX file of today's payments into Demo Bygg's bankgiro (paidToBygg), written where the CLI reads it. */
function bgmaxFile(name: string, pays: readonly IncomingPayment[]) {
  const path = join(dir, name);
  writeFileSync(path, paidToBygg(t, pays));
  return path;
}

/** The arguments of set-fee with every option, for the values a case gets wrong. */
const setFee = (service: string, currency: string, percentBp: string) => [
  'set-fee',
  '00000000-0000-4000-8000-000000000001',
  service,
  currency,
  '--percent-bp',
  percentBp,
  '--fixed-minor',
  '0',
];

describe('back-office CLI: usage errors are refused before anything is sent (exit 2)', () => {
  it.each([
    [['payout', 'extra']],
    [['payout', '--date', '2026-3-1']],
    [['import-bgmax']],
    [['plan-decision', 'not-a-uuid', 'approved']],
    [['plan-decision', '00000000-0000-4000-8000-000000000001', 'maybe']],
    [['import-bgmax', 'a', 'b']],
    [['unmatched', 'x']],
    [['assign', 'not-a-uuid', '00000000-0000-4000-8000-000000000001']],
    [['assign', '00000000-0000-4000-8000-000000000001']],
    [['daily', '--date', 'tomorrow']],
    [['check-books', 'now']],
    [['fees']],
    [['fees', 'abc']],
    [['set-fee', '00000000-0000-4000-8000-000000000001', 'factoring', 'SEK', '--percent-bp', '1']],
    [setFee('bananas', 'SEK', '1')],
    [setFee('factoring', 'USD', '1')],
    [setFee('factoring', 'SEK', '-1')],
    [setFee('factoring', 'SEK', '1.5')],
    [['claims', 'x']],
    [['claims', '--state', 'gone']],
    [['claim-debts', '--issuer', 'abc']],
    [['claim-debts', '--date', 'soon']],
    [['claim-days', '00000000-0000-4000-8000-000000000001']],
    [['claim-days', '00000000-0000-4000-8000-000000000001', '--days', '0']],
    [['claim-days', 'abc', '--days', '10']],
  ])('%j', async (argv) => {
    const r = await cli(...argv);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(/^backoffice: /);
  });

  it('a file that cannot be read is a usage error too', async () => {
    const r = await cli('import-bgmax', join(dir, 'missing.txt'));
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain('cannot read');
  });

  it('the help lists every money command', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(EXIT.ok);
    for (const c of [
      'payout',
      'import-bgmax',
      'unmatched',
      'assign',
      'deductions',
      'resolve-deduction',
      'daily',
      'held',
      'check-books',
      'fees',
      'set-fee',
      'plan-decision',
      'claims',
      'claim-debts',
      'claim-days',
    ])
      expect(r.out).toContain(`  ${c}`);
  });
});

describe('back-office CLI: fees', () => {
  it('set-fee sets one fee and keeps the others; fees lists them', async () => {
    const issuer = await bygg();
    const before = await t.db.select().from(issuerFees).where(eq(issuerFees.issuerId, issuer.id));
    const set = await cli(
      'set-fee',
      issuer.id,
      'factoring',
      'EUR',
      '--percent-bp',
      '175',
      '--fixed-minor',
      '950',
    );
    expect(set).toMatchObject({ code: EXIT.ok, out: `Fee of factoring in EUR set for issuer ${issuer.id}.` });
    const after = await t.db.select().from(issuerFees).where(eq(issuerFees.issuerId, issuer.id));
    const others = (rows: typeof after) =>
      rows
        .filter((f) => !(f.service === 'factoring' && f.currency === 'EUR'))
        .map((f) => [f.service, f.currency, f.percentBasisPoints, f.fixedMinor])
        .sort();
    expect(others(after)).toEqual(others(before));
    expect(after.find((f) => f.service === 'factoring' && f.currency === 'EUR')).toMatchObject({
      percentBasisPoints: 175,
      fixedMinor: 950,
    });
    const list = await cli('fees', issuer.id);
    expect(list.code).toBe(EXIT.ok);
    expect(list.out.split('\n')).toContain('factoring\tEUR\t1.75 %\t+ 9.50 EUR');
    expect(list.out.split('\n')[0]).toBe('Debt claimed after 30 days without payouts to set it off.');
    expect(list.out.split('\n')).toHaveLength(after.length + 1);
  });

  it('fees of an issuer that does not exist is refused by the server as not found (exit 1)', async () => {
    const r = await cli('fees', '00000000-0000-4000-8000-00000000dead');
    expect(r).toMatchObject({
      code: EXIT.refused,
      err: 'backoffice: HTTP 404 issuer.not_found: no issuer with that id',
    });
  });

  it('a wrong password is a sign-in failure (exit 3)', async () => {
    const out: string[] = [];
    const code = await runBackoffice(
      ['check-books'],
      { BACKOFFICE_USER: DEMO_OPERATOR, BACKOFFICE_PASSWORD: 'wrong-password', BACKOFFICE_URL: base },
      { out: (l) => out.push(l), err: (l) => out.push(l) },
    );
    expect(code).toBe(EXIT.auth);
  });
});

describe('back-office CLI: the money flow', () => {
  it('payout, import-bgmax, unmatched, assign, daily and check-books', async () => {
    const issuer = await bygg();
    const [a, b] = await sentInvoices(t, { n: 2, approve: true });
    if (!a || !b) throw new Error('no invoices');

    // Payout: what the run printed is what it wrote; a second run finds nothing to pay.
    const earlier = (await t.db.select({ id: settlements.id }).from(settlements)).map((s) => s.id);
    const payout = await cli('payout', '--date', today());
    expect(payout.code).toBe(EXIT.ok);
    const [mine, ...more] = (
      await t.db
        .select()
        .from(settlements)
        .where(and(eq(settlements.issuerId, issuer.id), eq(settlements.currency, 'SEK')))
    ).filter((s) => !earlier.includes(s.id));
    expect(more).toEqual([]);
    if (!mine) throw new Error('no settlement');
    const line = payout.out.split('\n').find((l) => l.startsWith(`Settlement ${mine.number}\t`));
    const dec = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')} SEK`;
    expect(line).toBe(
      `Settlement ${mine.number}\tissuer ${issuer.id}\t${mine.rowCount} rows\tgross ${dec(mine.grossMinor)}\tfees ${dec(mine.feeMinor)}\tpayout ${dec(mine.totalPayoutMinor)}\tto 6123-••••6789`,
    );
    // The settlement pays a and b (with whatever else the seed left owed to the issuer).
    const rowsOf = await t.db.select().from(settlementRows).where(eq(settlementRows.settlementId, mine.id));
    for (const inv of [a, b])
      expect(rowsOf.filter((r) => r.invoiceId === inv.id).map((r) => [r.kind, r.grossMinor])).toEqual([
        ['payout', inv.toPayMinor],
      ]);
    expect(await cli('payout', '--date', today())).toMatchObject({
      code: EXIT.ok,
      out: 'Nothing to pay out.',
    });

    // Import: a full payment of a and one no invoice claims.
    const file = bgmaxFile('day1.txt', [
      { reference: a.ocr ?? '', amountMinor: a.toPayMinor },
      { reference: '4242424242', amountMinor: 12_345 },
    ]);
    expect(await cli('import-bgmax', file)).toMatchObject({
      code: EXIT.ok,
      out: '2 payments read, 2 registered: 1 matched, 1 unmatched, 0 overpaid.',
    });
    expect(await cli('import-bgmax', file)).toMatchObject({
      code: EXIT.ok,
      out: 'This file was imported before (2 payments); nothing was registered again.',
    });
    const [paidA] = await t.db.select().from(invoices).where(eq(invoices.id, a.id));
    expect(paidA).toMatchObject({ state: 4, remainingMinor: 0 });

    // A broken file is refused, with the line, and nothing is registered.
    const broken = join(dir, 'broken.txt');
    writeFileSync(
      broken,
      Buffer.from(
        readBack(file).replace(
          /^15(.{48})(\d{18})/m,
          (_m, h: string, n: string) => `15${h}${String(Number(n) + 1).padStart(18, '0')}`,
        ),
        'latin1',
      ),
    );
    const refused = await cli('import-bgmax', broken);
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.err).toMatch(/refused at line \d+/);

    // Unmatched lists the stray payment; assign gives it to b, which is then part paid.
    const unmatched = await cli('unmatched');
    expect(unmatched.code).toBe(EXIT.ok);
    const [stray] = await t.db.select().from(payments).where(eq(payments.reference, '4242424242'));
    if (!stray) throw new Error('no stray payment');
    expect(unmatched.out).toContain(
      `${stray.id}\t${today()}\tbankgiro ${DEMO_BANKGIROS.bygg}\t123.45 SEK\t"4242424242"`,
    );
    const assigned = await cli('assign', stray.id, b.id);
    expect(assigned).toMatchObject({
      code: EXIT.ok,
      out: `Payment ${stray.id} assigned to invoice ${b.id}: applied 12345, overpaid 0 (minor units); the invoice is in state 3.`,
    });
    expect((await cli('unmatched')).out).not.toContain(stray.id);
    expect((await cli('assign', stray.id, b.id)).code).toBe(EXIT.refused);

    // The daily job 11 days after b's due date: overdue and reminder 1 for b, told in one line.
    const day = '2026-04-12';
    const daily = await cli('daily', '--date', day);
    expect(daily.code).toBe(EXIT.ok);
    const counts =
      /^Daily job for 2026-04-12: (\d+) distributed, (\d+) overdue, (\d+) reminder 1, (\d+) reminder 2, (\d+) to collection, (\d+) interest items, (\d+) charged back, (\d+) debts claimed, (\d+) claim reminders\.$/.exec(
        daily.out,
      );
    expect(counts).not.toBeNull();
    expect(Number(counts?.[2])).toBeGreaterThanOrEqual(1);
    expect(Number(counts?.[3])).toBeGreaterThanOrEqual(1);
    const [bNow] = await t.db.select().from(invoices).where(eq(invoices.id, b.id));
    expect(bNow?.dunningStep).toBeGreaterThanOrEqual(2);
    // The same day again writes nothing.
    expect((await cli('daily', '--date', day)).out).toBe(
      'Daily job for 2026-04-12: 0 distributed, 0 overdue, 0 reminder 1, 0 reminder 2, 0 to collection, 0 interest items, 0 charged back, 0 debts claimed, 0 claim reminders.',
    );

    // The book is sound, until a journal is broken by hand.
    expect(await cli('check-books')).toMatchObject({
      code: EXIT.ok,
      out: 'The book is sound: every journal balances, every invoice and settlement adds up.',
    });
    const [one] = await t.db
      .select()
      .from(postings)
      .where(and(inArray(postings.invoiceId, [a.id]), eq(postings.account, 'receivable')))
      .limit(1);
    if (!one) throw new Error('no posting');
    await t.db
      .update(postings)
      .set({ amountMinor: one.amountMinor + 1 })
      .where(eq(postings.id, one.id));
    const bad = await cli('check-books');
    expect(bad.code).toBe(EXIT.refused);
    expect(bad.err.split('\n')).toContain(`journal_balance\t${one.journalId}\tSEK sum 1`);
    expect(bad.err).toContain(`invoice_remaining\t${a.id}`);
  });
});

describe('back-office CLI: deductions and debts carried over', () => {
  it('import-bgmax counts a TK21 deduction apart, unmatched never lists it and assign refuses it', async () => {
    const [a] = await sentInvoices(t, { n: 1, approve: true });
    if (!a) throw new Error('no invoice');
    const path = bgmaxFile('tk21.txt', [
      { reference: a.ocr ?? '', amountMinor: a.toPayMinor },
      { reference: '89853', amountMinor: 50_000, deduction: true },
    ]);
    expect(await cli('import-bgmax', path)).toMatchObject({
      code: EXIT.ok,
      out: '2 payments read, 2 registered: 1 matched, 0 unmatched, 0 overpaid; 1 deductions (TK21, TK23) booked off the deposits.',
    });
    const [deduction] = await t.db.select().from(payments).where(eq(payments.reference, '89853'));
    if (!deduction) throw new Error('no deduction');
    expect(deduction).toMatchObject({ status: 'deduction', amountMinor: -50_000 });
    expect((await cli('unmatched')).out).not.toContain(deduction.id);
    const refused = await cli('assign', deduction.id, a.id);
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.err).toContain('HTTP 409 payments.deduction');
    expect((await cli('check-books')).code).toBe(EXIT.ok);
  });

  it('import-bgmax counts a split payment part by part and zero amounts as information; unmatched lists the unknown part, --information the zero', async () => {
    const [a] = await sentInvoices(t, { n: 1, approve: true });
    if (!a) throw new Error('no invoice');
    const path = bgmaxFile('split.txt', [
      {
        reference: '',
        amountMinor: 30_000,
        extraReferences: [
          { reference: a.ocr ?? '', amountMinor: 20_000 },
          { reference: '5151515151', amountMinor: 10_000 },
        ],
      },
      { reference: '6161616161', amountMinor: 0 },
    ]);
    expect(await cli('import-bgmax', path)).toMatchObject({
      code: EXIT.ok,
      out: '2 payments read, 3 registered: 1 matched, 1 unmatched, 0 overpaid; 1 zero amounts kept as information (unmatched --information).',
    });
    const [part] = await t.db.select().from(payments).where(eq(payments.reference, '5151515151'));
    const [zero] = await t.db.select().from(payments).where(eq(payments.reference, '6161616161'));
    if (!part || !zero) throw new Error('no part or zero row');
    const unmatched = (await cli('unmatched', '--page-size', '100')).out;
    expect(unmatched).toContain(
      `${part.id}\t${today()}\tbankgiro ${DEMO_BANKGIROS.bygg}\t100.00 SEK\t"5151515151"`,
    );
    expect(unmatched).toContain(`part 2 of BGC ${part.bgcSerial}`);
    expect(unmatched).not.toContain(zero.id);
    expect((await cli('unmatched', '--information', '--page-size', '100')).out).toContain(`${zero.id}\t`);
    const refused = await cli('assign', zero.id, a.id);
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.err).toContain('HTTP 409 payments.information');
    expect((await cli('check-books')).code).toBe(EXIT.ok);
  });

  it('payout says which issuers it left unsettled because their charge backs exceed their payouts', async () => {
    const issuer = await bygg();
    // Demo Bygg's debt waits a year for payouts before it is claimed (claim-debts, below).
    expect(await cli('claim-days', issuer.id, '--days', '365')).toMatchObject({
      code: EXIT.ok,
      out: `Issuer ${issuer.id}: a debt is claimed after 365 days.`,
    });
    // Months on, the demo's unpaid invoices have been charged back: Demo Bygg owes us.
    expect((await cli('daily', '--date', '2026-06-30')).code).toBe(EXIT.ok);
    const before = await t.db.select({ id: settlements.id }).from(settlements);
    const run = await cli('payout', '--date', '2026-06-30');
    expect(run.code).toBe(EXIT.ok);
    const line = run.out.split('\n').find((l) => l.includes(`issuer ${issuer.id}`));
    expect(line).toMatch(
      new RegExp(
        `^Not settled\tissuer ${issuer.id}\t\\d+ rows\tcharge backs exceed payouts, the issuer owes \\d+\\.\\d{2} SEK: set off in a later run$`,
      ),
    );
    const made = (await t.db.select().from(settlements)).filter((s) => !before.some((b) => b.id === s.id));
    expect(made.filter((s) => s.issuerId === issuer.id)).toEqual([]);
    expect((await cli('check-books')).code).toBe(EXIT.ok);

    // The back office claims the debt at once: one line per claim, then claims lists it.
    const owed = line?.match(/owes (\d+\.\d{2}) SEK/)?.[1];
    const claimed = await cli('claim-debts', '--issuer', issuer.id, '--date', '2026-06-30');
    expect(claimed.code).toBe(EXIT.ok);
    expect(claimed.out).toMatch(
      new RegExp(`^Claim \\d+\tissuer ${issuer.id}\t\\d+ rows\t${owed} SEK\tOCR \\d+\tdue 2026-07-14$`),
    );
    expect((await cli('claim-debts', '--issuer', issuer.id, '--date', '2026-06-30')).out).toBe(
      'No debt to claim.',
    );
    const listed = await cli('claims', '--state', 'open');
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.out).toContain(`\topen\tissuer ${issuer.id}\tDemo Bygg AB\t${owed} SEK\tpaid 0.00 SEK`);
    // Paid: only the demo's Sjöberg Snickeri AB, whose debt was claimed and paid (demo-debt.ts).
    const paid = await cli('claims', '--state', 'paid');
    expect(paid.code).toBe(EXIT.ok);
    expect(paid.out).toMatch(
      /^Claim \d+\tpaid\tissuer [0-9a-f-]+\tSjöberg Snickeri AB\t31375\.00 SEK\tpaid 31375\.00 SEK\tleft 0\.00 SEK\tOCR \d+\tdue \d{4}-\d{2}-\d{2}\t1 reminder$/,
    );
    expect((await cli('check-books')).code).toBe(EXIT.ok);
  });
});

function readBack(path: string): string {
  return readFileSync(path).toString('latin1');
}

describe('back-office CLI: payout holds', () => {
  it('prints an issuer without a verified bank account as held, with the reason, and pays it once verified', async () => {
    const fresh = await freshIssuer(t, { verified: false });
    const [invoice] = await fresh.invoicesOf(1, '2026-04-01');
    if (!invoice) throw new Error('no invoice');
    const net = fresh.netOf(invoice.toPayMinor);
    const dec = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')} SEK`;
    const held = await cli('payout', '--date', today());
    expect(held.code).toBe(EXIT.ok);
    expect(held.out.split('\n')).toContain(
      `Held\tissuer ${fresh.issuer.id}\t1 rows\t${dec(net)}\tbank_account_unverified: no verified bank account, paid by the first run after the issuer verifies one`,
    );
    expect(await t.db.select().from(settlements).where(eq(settlements.issuerId, fresh.issuer.id))).toEqual(
      [],
    );
  });
});

describe('back-office CLI: an installment plan’s decision', () => {
  it('approves a signed plan once (the second is refused, exit 1) and rejects another', async () => {
    const token = await t.login('demo');
    const [recipient] = await t.db
      .select()
      .from(recipients)
      .where(eq(recipients.issuerId, (await bygg()).id))
      .limit(1);
    const planIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.call(token, 'POST', '/api/limited/installmentplans', {
        ...VALID_PLAN_BODY,
        recipientID: recipient?.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      planIds.push((res.json() as { installmentPlanID: string }).installmentPlanID);
    }
    // Signed at the provider: the signing itself is tested in the installments module.
    await t.db
      .update(installmentPlans)
      .set({ state: PLAN_STATE.signed })
      .where(inArray(installmentPlans.id, planIds));
    const [first = '', second = ''] = planIds;
    const approved = await cli('plan-decision', first, 'approved');
    expect(approved.code, approved.err).toBe(EXIT.ok);
    expect(approved.out).toContain(
      `Installment plan ${first} approved; it is now in state ${PLAN_STATE.active}`,
    );
    const again = await cli('plan-decision', first, 'approved');
    expect(again.code).toBe(EXIT.refused);
    expect(again.err).toContain('installmentPlans.invalid_transition');
    const rejected = await cli('plan-decision', second, 'rejected');
    expect(rejected.code).toBe(EXIT.ok);
    const states = await t.db
      .select({ id: installmentPlans.id, state: installmentPlans.state })
      .from(installmentPlans)
      .where(inArray(installmentPlans.id, planIds));
    expect(Object.fromEntries(states.map((p) => [p.id, p.state]))).toEqual({
      [first]: PLAN_STATE.active,
      [second]: PLAN_STATE.agreementRejected,
    });
  });
});
