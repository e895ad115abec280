import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freshIssuer } from '../../../test/support/money';
import { whileRefusing } from '../../../test/support/refuse-writes';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { rows } from '../../db/migrate';
import { invoices, issuers } from '../../db/schema';
import { DEMO_BANKGIROS } from '../../db/seed/demo';
import { incomingPaymentsFile } from './money.service';

/**
 * POST /api/backoffice/payments/import over HTTP, as an operator and the CLI send it: a file that
 * fails a check of the format is refused whole, 422 `bgmax.invalid` naming the line and the rule,
 * and nothing at all is written; a good file imports once.
 */

const t = useTestApp({ resetEach: true });

/** Everything an import writes, fingerprinted. */
async function written(): Promise<unknown> {
  const [r] = rows<Record<string, string>>(
    await t.db.execute(sql`select
      (select count(*) from payment_files)::text as files,
      (select count(*) from payments)::text as payments,
      (select count(*) from postings)::text as postings,
      (select count(*) from invoice_timeline)::text as events,
      (select md5(string_agg(id::text || state || remaining_minor, ',' order by id)) from invoices) as invoices,
      (select md5(string_agg(issuer_id::text || currency || due_date || invoice_count || remaining_minor, ',' order by 1)) from invoice_unpaid_dues) as dues`),
  );
  return r;
}

/** A good file: two open invoices of Demo Bygg AB paid in full. */
async function goodFile(): Promise<{ bytes: Buffer; lines: string[] }> {
  const [bygg] = await t.db.select().from(issuers).where(eq(issuers.name, 'Demo Bygg AB'));
  const open = await t.db
    .select()
    .from(invoices)
    .where(
      and(eq(invoices.issuerId, bygg?.id ?? ''), inArray(invoices.state, [2, 3]), isNotNull(invoices.ocr)),
    )
    .limit(2);
  expect(open).toHaveLength(2);
  const bytes = Buffer.from(
    incomingPaymentsFile({
      paymentDate: '2026-03-10',
      deposits: [
        {
          bankgiro: DEMO_BANKGIROS.bygg,
          payments: open.map((i) => ({ reference: i.ocr ?? '', amountMinor: i.remainingMinor })),
        },
      ],
      firstSerial: 880_001,
      firstDeposit: 88_001,
    }),
  );
  return { bytes, lines: bytes.toString('latin1').split(/\r?\n/) };
}

/** The file with one record's characters `from`..`from + text.length` (1-based, as the layout says) replaced. */
function withChange(lines: string[], recordType: string, from: number, text: string) {
  const at = lines.findIndex((l) => l.startsWith(recordType));
  expect(at).toBeGreaterThanOrEqual(0);
  const line = lines[at] ?? '';
  const changed = [...lines];
  changed[at] = line.slice(0, from - 1) + text + line.slice(from - 1 + text.length);
  return { bytes: Buffer.from(changed.join('\r\n'), 'latin1'), line: at + 1 };
}

/** Runs `act` while the database refuses audit rows of `event`, as a failing write would. */
const refuseAudit = (event: string, act: () => Promise<void>) =>
  whileRefusing(t.db, 'audit_log', `new.event = '${event}'`, act);

async function post(token: string, bytes: Buffer) {
  return t.app.inject({
    method: 'POST',
    url: '/api/backoffice/payments/import?filename=day.bgmax',
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
}

describe('POST /api/backoffice/payments/import', () => {
  it('refuses a broken file whole, naming the line and the rule, and writes nothing', async () => {
    const token = await t.loginOperator();
    const { lines } = await goodFile();
    const tk15 = lines.find((l) => l.startsWith('15')) ?? '';
    const tk70 = lines.find((l) => l.startsWith('70')) ?? '';
    const bump = (digits: string) => String(Number(digits) + 1).padStart(digits.length, '0');
    const broken = [
      // TK15 deposit amount (positions 51-68) one öre off the payments' sum.
      { ...withChange(lines, '15', 51, bump(tk15.slice(50, 68))), rule: 'bgmax.deposit_amount_mismatch' },
      // TK70 number of payment records (positions 3-10) one too many.
      { ...withChange(lines, '70', 3, bump(tk70.slice(2, 10))), rule: 'bgmax.end_count_mismatch' },
      // A letter in the first TK20's amount (positions 38-55).
      { ...withChange(lines, '20', 40, 'X'), rule: 'bgmax.not_digits' },
    ];
    const before = await written();
    for (const b of broken) {
      const res = await post(token, b.bytes);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'bgmax.invalid', details: { line: b.line, rule: b.rule } });
      expect(await written()).toEqual(before);
    }
  });

  it('imports a good file once: the same bytes again register nothing', async () => {
    const token = await t.loginOperator();
    const { bytes } = await goodFile();
    const before = await written();
    const first = await post(token, bytes);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ duplicateFile: false, payments: 2, registered: 2, matched: 2 });
    const after = await written();
    expect(after).not.toEqual(before);
    const again = await post(token, bytes);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ duplicateFile: true, registered: 0, matched: 0 });
    expect(await written()).toEqual(after);
  });

  it('writes the import and its audit row together: when the audit row fails, nothing is imported', async () => {
    const token = await t.loginOperator();
    const { bytes } = await goodFile();
    const before = await written();
    await refuseAudit('backoffice.payments.imported', async () => {
      const res = await post(token, bytes);
      expect(res.statusCode).toBe(500);
    });
    expect(await written()).toEqual(before);
    // Once the audit row can be written, the same file imports (it was not half-registered).
    const res = await post(token, bytes);
    expect(res.json()).toMatchObject({ duplicateFile: false, registered: 2 });
  });

  it('refuses a body over the size limit with 413 files.too_large, before reading it', async () => {
    const token = await t.loginOperator();
    const before = await written();
    // One byte over the route's limit (64 MiB): the file is never read, nothing is written.
    const res = await post(token, Buffer.alloc(64 * 1024 * 1024 + 1, 0x20));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'files.too_large' });
    expect(await written()).toEqual(before);
  });

  it('is for operators only: a customer token gets 401', async () => {
    const token = await t.login('demo');
    const { bytes } = await goodFile();
    const res = await post(token, bytes);
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/backoffice/payouts', () => {
  it('writes the run and its audit row together: when the audit row fails, nothing is paid out', async () => {
    const token = await t.loginOperator();
    const settled = async () =>
      rows<{ n: string; p: string }>(
        await t.db.execute(sql`select (select count(*) from settlements)::text as n,
          (select count(*) from postings where settlement_id is not null)::text as p`),
      );
    // Something to pay out: an approved invoice of an issuer with no money history.
    await (await freshIssuer(t)).invoicesOf(1, '2026-04-01');
    const before = await settled();
    const run = () =>
      t.app.inject({ method: 'POST', url: '/api/backoffice/payouts', headers: bearer(token), payload: {} });
    await refuseAudit('backoffice.payout', async () => {
      expect((await run()).statusCode).toBe(500);
    });
    expect(await settled()).toEqual(before);
    const res = await run();
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { settlements: unknown[] }).settlements.length).toBeGreaterThan(0);
    expect(await settled()).not.toEqual(before);
  });
});
