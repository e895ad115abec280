import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoices, postings } from '../../db/schema';
import { checkBooks, postJournal, UnbalancedJournalError } from './money.service';

const t = useTestApp({ resetEach: true });

async function anyInvoice() {
  const [invoice] = await t.db.select().from(invoices).where(eq(invoices.state, 9)).limit(1);
  if (!invoice) throw new Error('the demo data has no invoice awaiting a decision');
  return invoice;
}

describe('postJournal', () => {
  it('writes a balanced journal under one id and leaves zero lines out', async () => {
    const invoice = await anyInvoice();
    const at = new Date('2026-03-02T08:00:00Z');
    const id = await t.db.transaction((tx) =>
      postJournal(tx, {
        issuerId: invoice.issuerId,
        currency: invoice.currency,
        kind: 'payment',
        at,
        lines: [
          { account: 'bank', amountMinor: 12_345 },
          { account: 'receivable', amountMinor: -12_345, invoiceId: invoice.id },
          { account: 'overpayments', amountMinor: 0 },
        ],
      }),
    );
    const written = await t.db
      .select()
      .from(postings)
      .where(eq(postings.journalId, id ?? ''));
    expect(written.map((p) => [p.account, p.amountMinor]).sort()).toEqual([
      ['bank', 12_345],
      ['receivable', -12_345],
    ]);
  });

  it('refuses an unbalanced journal and the transaction writes nothing', async () => {
    const invoice = await anyInvoice();
    const [before] = await t.db.select({ n: count() }).from(postings);
    await expect(
      t.db.transaction(async (tx) => {
        await postJournal(tx, {
          issuerId: invoice.issuerId,
          currency: 'SEK',
          kind: 'recognise',
          at: new Date(),
          lines: [
            { account: 'receivable', amountMinor: 100, invoiceId: invoice.id },
            { account: 'issuer_payable', amountMinor: -100, invoiceId: invoice.id },
          ],
        });
        await postJournal(tx, {
          issuerId: invoice.issuerId,
          currency: 'SEK',
          kind: 'payment',
          at: new Date(),
          lines: [
            { account: 'bank', amountMinor: 100 },
            { account: 'receivable', amountMinor: -99, invoiceId: invoice.id },
          ],
        });
      }),
    ).rejects.toBeInstanceOf(UnbalancedJournalError);
    const [after] = await t.db.select({ n: count() }).from(postings);
    expect(after?.n).toBe(before?.n);
  });

  it('refuses a fraction of a minor unit', async () => {
    const invoice = await anyInvoice();
    await expect(
      t.db.transaction((tx) =>
        postJournal(tx, {
          issuerId: invoice.issuerId,
          currency: 'SEK',
          kind: 'payment',
          at: new Date(),
          lines: [
            { account: 'bank', amountMinor: 0.5 },
            { account: 'receivable', amountMinor: -0.5 },
          ],
        }),
      ),
    ).rejects.toThrow(RangeError);
  });
});

describe('checkBooks', () => {
  it('names an invoice on our book whose receivable postings differ from its remaining amount', async () => {
    const invoice = await anyInvoice();
    await t.db.update(invoices).set({ state: 2 }).where(eq(invoices.id, invoice.id));
    const violations = await checkBooks(t.db, invoice.issuerId);
    expect(violations).toContainEqual(expect.objectContaining({ rule: 'invoice_remaining', id: invoice.id }));
    await t.db.transaction((tx) =>
      postJournal(tx, {
        issuerId: invoice.issuerId,
        currency: invoice.currency,
        kind: 'recognise',
        at: new Date(),
        lines: [
          { account: 'receivable', amountMinor: invoice.remainingMinor, invoiceId: invoice.id },
          { account: 'issuer_payable', amountMinor: -invoice.remainingMinor, invoiceId: invoice.id },
        ],
      }),
    );
    expect((await checkBooks(t.db, invoice.issuerId)).map((v) => v.id)).not.toContain(invoice.id);
  });
});
