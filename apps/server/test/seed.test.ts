import { isFinnishBusinessId, isSwedishOrganisationNumber } from '@portal/domain/organisation-number';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, issuers, messages, userAbilities, users } from '../src/db/schema';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET, DEMO_USERS, seedDemo } from '../src/db/seed/demo';
import { verifyPassword } from '../src/lib/passwords';
import { unseal } from '../src/lib/tokens';
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
    expect(first).toMatchObject({ groups: 1, issuers: 3, users: DEMO_USERS.length });
    // Six written by hand plus the notices of the simulated money flow (decisions, settlements).
    expect(first.messages).toBeGreaterThan(6);
    expect(await seedDemo(testDb.db, KEY, NOW)).toBe(false);
    expect(await counts()).toEqual(first);
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
    expect(all.map((i) => i.country).sort()).toEqual(['FI', 'SE', 'SE']);
  });

  it('writes VAT numbers that carry the organisation number', async () => {
    for (const issuer of await testDb.db.select().from(issuers)) {
      const digits = issuer.organizationNo.replace(/\D/g, '');
      expect(issuer.vat, issuer.name).toBe(issuer.country === 'SE' ? `SE${digits}01` : `FI${digits}`);
    }
  });
});
