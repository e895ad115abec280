import { type Recipient, recipientSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { recipients } from '../src/db/schema';
import { isUniqueViolation } from '../src/lib/pg-errors';
import { VALID_RECIPIENT_BODY } from './support/route-samples';
import { bearer } from './support/test-app';
import { useLogins, useTestApp } from './support/use-test-app';

// Issue #11: party numbers unique per issuer, checked by their check digits; phone numbers in E.164.
describe('recipient numbers', () => {
  const t = useTestApp({ resetEach: true });
  const user = useLogins(t, { demo: 'demo', other: 'demo-other' }, { each: true });

  const send = (token: string, method: 'POST' | 'PUT', url: string, body: object) =>
    t.app.inject({ method, url, headers: bearer(token), payload: { ...VALID_RECIPIENT_BODY, ...body } });
  const create = (token: string, body: object) => send(token, 'POST', '/api/limited/recipients', body);
  const created = async (token: string, body: object): Promise<Recipient> => {
    const res = await create(token, body);
    expect(res.statusCode, res.body).toBe(200);
    return recipientSchema.parse(res.json());
  };

  it('refuses a second recipient of the issuer with the same organisation number, written any way', async () => {
    const first = await created(user.demo, { name: 'Saab AB', organizationNumber: '556036-0793' });
    for (const organizationNumber of ['556036-0793', '5560360793', '165560360793', ' 556036 0793']) {
      const res = await create(user.demo, { name: 'Saab igen AB', organizationNumber });
      expect(res.statusCode, organizationNumber).toBe(400);
      expect(res.json()).toEqual({
        code: 'recipient.invalid',
        issues: [{ path: 'organizationNumber', code: 'recipient.org_number_taken' }],
        details: {
          recipientID: first.recipientID,
          recipientName: 'Saab AB',
          recipientOrganizationNumber: '556036-0793',
        },
      });
    }
    const same = await t.db.select().from(recipients).where(eq(recipients.name, 'Saab igen AB'));
    expect(same).toEqual([]);
  });

  it('refuses an edit that takes another recipient’s number, and lets a recipient keep its own', async () => {
    const saab = await created(user.demo, { name: 'Saab AB', organizationNumber: '556036-0793' });
    const stad = await created(user.demo, { name: 'Stockholms stad', organizationNumber: '212000-0142' });
    const url = `/api/limited/recipients/${stad.recipientID}`;
    const taken = await send(user.demo, 'PUT', url, {
      name: 'Stockholms stad',
      organizationNumber: '5560360793',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().details).toEqual({
      recipientID: saab.recipientID,
      recipientName: 'Saab AB',
      recipientOrganizationNumber: '556036-0793',
    });

    const kept = await send(user.demo, 'PUT', `/api/limited/recipients/${saab.recipientID}`, {
      name: 'Saab Aktiebolag',
      organizationNumber: '5560360793',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(recipientSchema.parse(kept.json())).toMatchObject({
      name: 'Saab Aktiebolag',
      organizationNumber: '556036-0793',
    });
  });

  it('lets another issuer have a recipient with the same number', async () => {
    await created(user.demo, { name: 'Saab AB', organizationNumber: '556036-0793' });
    const theirs = await created(user.other, {
      name: 'Saab AB',
      organizationNumber: '5560360793',
      country: 'FI',
    });
    expect(theirs.organizationNumber).toBe('556036-0793');
    expect(
      await t.db.select().from(recipients).where(eq(recipients.organizationNumber, '556036-0793')),
    ).toHaveLength(2);
  });

  it('keeps recipients without a number apart from the rule', async () => {
    await created(user.demo, { name: 'Privat 1', organizationNumber: '' });
    await created(user.demo, { name: 'Privat 2', organizationNumber: '' });
  });

  it('the database refuses a duplicate that did not come through the route', async () => {
    const saab = await created(user.demo, { name: 'Saab AB', organizationNumber: '556036-0793' });
    const [row] = await t.db.select().from(recipients).where(eq(recipients.id, saab.recipientID));
    const insert = t.db
      .insert(recipients)
      .values({
        issuerId: row?.issuerId ?? '',
        name: 'Saab bakvägen',
        zipcode: '111 22',
        city: 'Stockholm',
        email: 'x@saab.se',
        organizationNumber: '16 556036-0793',
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isUniqueViolation(await insert, 'recipients_issuer_party_number_idx')).toBe(true);
  });

  it('stores a national phone number in E.164 by the recipient’s country', async () => {
    const se = await created(user.demo, { name: 'Mobil AB', organizationNumber: '', phone: '070-123 45 67' });
    expect(se.phone).toBe('+46701234567');
    const fi = await created(user.demo, { name: 'Puhelin Oy', phone: '09 123 4567', country: 'FI' });
    expect(fi.phone).toBe('+35891234567');
    const [stored] = await t.db.select().from(recipients).where(eq(recipients.id, fi.recipientID));
    expect(stored?.phone).toBe('+35891234567');
    const edited = await send(user.demo, 'PUT', `/api/limited/recipients/${se.recipientID}`, {
      name: 'Mobil AB',
      phone: '08-123 456 78',
    });
    expect(recipientSchema.parse(edited.json()).phone).toBe('+46812345678');
  });

  it.each([
    ['phone', { phone: 'ring mig' }, 'recipient.phone_invalid'],
    ['phone', { phone: '123' }, 'recipient.phone_invalid'],
    ['organizationNumber', { organizationNumber: '556036-0794' }, 'validation.organization_number'],
    ['organizationNumber', { organizationNumber: '811228-9875' }, 'validation.organization_number'],
    ['organizationNumber', { organizationNumber: '811328-9873' }, 'validation.organization_number'],
    ['organizationNumber', { organizationNumber: '0112038-8' }, 'validation.organization_number'],
  ])('refuses a bad %s: %o', async (path, body, code) => {
    const before = await t.db.select().from(recipients);
    const res = await create(user.demo, { name: 'Fel AB', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'recipient.invalid', issues: [{ path, code }] });
    expect(await t.db.select().from(recipients)).toHaveLength(before.length);
  });

  it('takes a personnummer and a Y-tunnus with right check digits', async () => {
    expect(
      (await created(user.demo, { name: 'Enskild firma', organizationNumber: '811228-9874' }))
        .organizationNumber,
    ).toBe('811228-9874');
    expect(
      (await created(user.demo, { name: 'Nokia Oyj', organizationNumber: '0112038-9', country: 'FI' }))
        .organizationNumber,
    ).toBe('0112038-9');
  });

  it('the demo seed stores its recipients’ phone numbers in E.164', async () => {
    const rows = await t.db.select({ phone: recipients.phone }).from(recipients);
    const phones = rows.map((r) => r.phone).filter((p) => p !== '');
    expect(phones.length).toBeGreaterThan(0);
    for (const phone of phones) expect(phone).toMatch(/^\+[1-9][0-9]{7,14}$/);
  });
});
