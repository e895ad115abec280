import { PLAN_EVENT, PLAN_STATE } from '@portal/contracts';
import { isFinnishBusinessId, isSwedishOrganisationNumber } from '@portal/domain/organisation-number';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/db/migrate';
import {
  groups,
  installmentPlanEvents,
  installmentPlanRows,
  installmentPlans,
  issuerDebtClaims,
  issuers,
  messages,
  payments,
  userAbilities,
  users,
} from '../src/db/schema';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET, DEMO_USERS, seedDemo } from '../src/db/seed/demo';
import { verifyPassword } from '../src/lib/passwords';
import { unseal } from '../src/lib/tokens';
import { checkBooks } from '../src/modules/money/money.service';
import { keptTotalsDrift } from './support/kept-totals';
import { createTestDb, type TestDb } from './support/test-db';

const KEY = Buffer.alloc(32, 3);
const NOW = new Date('2026-03-02T08:00:00Z');

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.close());

async function counts() {
  const db = testDb.db;
  return {
    groups: (await db.select().from(groups)).length,
    issuers: (await db.select().from(issuers)).length,
    users: (await db.select().from(users)).length,
    abilities: (await db.select().from(userAbilities)).length,
    messages: (await db.select().from(messages)).length,
  };
}

describe('seedDemo', () => {
  it('writes the demo data once; a second run changes nothing', async () => {
    expect(await seedDemo(testDb.db, KEY, NOW)).toBe(true);
    const first = await counts();
    expect(first).toMatchObject({ groups: 1, issuers: 4, users: DEMO_USERS.length });
    // Six written by hand plus the notices of the simulated money flow (decisions, settlements).
    expect(first.messages).toBeGreaterThan(6);
    expect(await seedDemo(testDb.db, KEY, NOW)).toBe(false);
    expect(await counts()).toEqual(first);
    // 14 simulated months of bulk money writes left every kept total (list, dashboard) right.
    expect(await keptTotalsDrift(testDb.db)).toEqual([]);
    // The whole demo seed runs here (about 10 s alone; three times that with other runs on both cores).
  }, 120_000);

  it('lived through every state, money event and kind of payment and settlement row', async () => {
    // Seeded by the first test: the 14 simulated months of the money flow (docs/MONEY.md).
    const values = async (query: ReturnType<typeof sql>) =>
      rows<{ v: string | number }>(await testDb.db.execute(query)).map((r) => r.v);
    // Draft, not paid, part paid, paid, charged back, queued, awaiting a decision, deleted.
    expect(await values(sql`select distinct state as v from invoices order by 1`)).toEqual(
      expect.arrayContaining([1, 2, 3, 4, 5, 6, 9, 11]),
    );
    // Registered, rejected, approved, payout, paid, part paid, reminders 1 and 2, collection,
    // settlement, interest, deleted, overpayment, charged back, distributed, overdue.
    expect(await values(sql`select distinct event as v from invoice_timeline order by 1`)).toEqual(
      expect.arrayContaining([1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 14, 20, 21, 22, 24, 25]),
    );
    expect(await values(sql`select distinct status as v from payments order by 1`)).toEqual([
      'claim',
      'deduction',
      'matched',
      'unmatched',
    ]);
    expect(await values(sql`select distinct kind as v from settlement_rows order by 1`)).toEqual([
      'chargeBack',
      'deduction',
      'payment',
      'payout',
      'planPayout',
    ]);
    // The one handled deduction: charged to Demo Bygg, on the credited invoice's timeline (29).
    expect(await values(sql`select deduction_action as v from payments where status = 'deduction'`)).toEqual([
      'chargeIssuer',
    ]);
    expect(await values(sql`select distinct event as v from invoice_timeline where event = 29`)).toEqual([
      29,
    ]);
  });

  it('holds Demo Bygg AB’s installment plans in every state, lived through, and the books hold', async () => {
    const db = testDb.db;
    const [bygg] = await db.select().from(issuers).where(eq(issuers.name, 'Demo Bygg AB'));
    if (!bygg) throw new Error('no demo issuer');
    const plans = await db.select().from(installmentPlans).where(eq(installmentPlans.issuerId, bygg.id));
    // 1 registered, 8 sent for signing, 9 signed, 2 active, 10 agreement rejected, 3 completed,
    // 4 cancelled, 7 final notice, 5 recalled, 6 replaced (and the plan that replaced it, active).
    expect([...new Set(plans.map((p) => p.state))].sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const events = await db
      .select()
      .from(installmentPlanEvents)
      .where(eq(installmentPlanEvents.issuerId, bygg.id));
    const eventsOf = (state: number) => {
      const plan = plans.find((p) => p.state === state);
      return events.filter((e) => e.planId === plan?.id).map((e) => e.event);
    };
    // Each reached its state by the real moves: signed on the sandbox, decided, collected by the job.
    expect(eventsOf(PLAN_STATE.completed)).toEqual(
      expect.arrayContaining([
        PLAN_EVENT.signeeSigned,
        PLAN_EVENT.signed,
        PLAN_EVENT.approved,
        PLAN_EVENT.paidOut,
        PLAN_EVENT.installmentInvoiced,
        PLAN_EVENT.installmentPaid,
        PLAN_EVENT.completed,
      ]),
    );
    expect(eventsOf(PLAN_STATE.recalled)).toEqual(
      expect.arrayContaining([PLAN_EVENT.finalNotice, PLAN_EVENT.recalled]),
    );
    expect(eventsOf(PLAN_STATE.sentForSigning)).toEqual([PLAN_EVENT.registered, PLAN_EVENT.sentForSigning]);
    const signed = plans.find((p) => p.state === PLAN_STATE.signed);
    expect(signed?.signedFileKey).toBeTruthy();
    // The replaced plan's debt moved to its successor, which is active, by the real moves.
    const replaced = plans.find((p) => p.state === PLAN_STATE.replaced);
    const successor = plans.find((p) => p.replacesPlanId === replaced?.id);
    expect(successor?.state).toBe(PLAN_STATE.active);
    expect(eventsOf(PLAN_STATE.replaced)).toEqual(
      expect.arrayContaining([PLAN_EVENT.installmentPaid, PLAN_EVENT.replaced]),
    );
    const active = plans.find((p) => p.state === PLAN_STATE.active && !p.replacesPlanId);
    const activeRows = await db
      .select()
      .from(installmentPlanRows)
      .where(eq(installmentPlanRows.planId, active?.id ?? ''));
    expect(activeRows.filter((r) => r.invoiceId).length).toBeGreaterThan(1);
    expect(activeRows.some((r) => !r.invoiceId)).toBe(true);
    expect(await checkBooks(db, bygg.id)).toEqual([]);
  });

  it('holds Sjöberg Snickeri AB’s debt, claimed by the daily job, reminded and paid by BGMAX', async () => {
    const db = testDb.db;
    const [indebted] = await db.select().from(issuers).where(eq(issuers.name, 'Sjöberg Snickeri AB'));
    if (!indebted) throw new Error('no indebted issuer');
    const claims = await db.select().from(issuerDebtClaims).where(eq(issuerDebtClaims.issuerId, indebted.id));
    expect(claims).toHaveLength(1);
    const [claim] = claims;
    // 11,875.00 + 19,500.00 charged back, no payouts to set them off.
    expect(claim).toMatchObject({
      state: 'paid',
      amountMinor: 3_137_500,
      paidMinor: 3_137_500,
      rowCount: 2,
      remindersSent: 1,
    });
    const paid = await db
      .select()
      .from(payments)
      .where(eq(payments.claimId, claim?.id ?? ''));
    expect(paid.map((p) => p.status)).toEqual(['claim', 'claim']);
    const notices = await db.select().from(messages).where(eq(messages.issuerId, indebted.id));
    expect(notices.map((m) => m.code)).toEqual(expect.arrayContaining(['debtClaim', 'debtClaimReminder']));
    expect(await checkBooks(db, indebted.id)).toEqual([]);
    expect(await checkBooks(db)).toEqual([]);
  });

  it('names every company of the register and every recipient of an issuer differently', async () => {
    const duplicates = async (query: ReturnType<typeof sql>) =>
      rows<{ name: string }>(await testDb.db.execute(query));
    expect(await duplicates(sql`select name from companies group by name having count(*) > 1`)).toEqual([]);
    expect(
      await duplicates(sql`select name from recipients group by issuer_id, name having count(*) > 1`),
    ).toEqual([]);
    const [companyCount] = rows<{ n: number }>(
      await testDb.db.execute(sql`select count(*)::int as n from companies`),
    );
    expect(companyCount?.n).toBe(60);
  });

  it('creates every user of the README with the demo password', async () => {
    const all = await testDb.db.select().from(users);
    expect(all.map((u) => u.username).sort()).toEqual(DEMO_USERS.map((u) => u.username).sort());
    const demo = all.find((u) => u.username === 'demo');
    expect(demo?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(demo?.passwordHash ?? '', DEMO_PASSWORD)).toBe(true);
  });

  it('gives demo-2fa the documented TOTP secret, sealed', async () => {
    const [user] = await testDb.db.select().from(users).where(eq(users.username, 'demo-2fa'));
    expect(user?.totpSecret).toMatch(/^v1\./);
    expect(unseal(KEY, user?.totpSecret ?? '')).toBe(DEMO_TOTP_SECRET);
  });

  it('writes valid organisation numbers for every demo issuer', async () => {
    const all = await testDb.db.select().from(issuers);
    for (const issuer of all) {
      const valid =
        issuer.country === 'SE'
          ? isSwedishOrganisationNumber(issuer.organizationNo)
          : isFinnishBusinessId(issuer.organizationNo);
      expect(valid, `${issuer.name} ${issuer.organizationNo}`).toBe(true);
    }
    expect(all.map((i) => i.country).sort()).toEqual(['FI', 'SE', 'SE', 'SE']);
  });

  it('writes VAT numbers that carry the organisation number', async () => {
    for (const issuer of await testDb.db.select().from(issuers)) {
      const digits = issuer.organizationNo.replace(/\D/g, '');
      expect(issuer.vat, issuer.name).toBe(issuer.country === 'SE' ? `SE${digits}01` : `FI${digits}`);
    }
  });
});
