import { recipientSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { recipients } from '../src/db/schema';
import { pdfText } from './support/pdf-text';
import { VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from './support/route-samples';
import { bearer } from './support/test-app';
import { useLogins, useTestApp } from './support/use-test-app';

const FINNISH = {
  ...VALID_RECIPIENT_BODY,
  name: 'Asiakas Oy',
  zipcode: '00100',
  city: 'Helsinki',
  country: 'FI',
  email: 'lasku@asiakas.fi',
};

describe('a recipient’s document language (issue #11)', () => {
  const t = useTestApp();
  const who = useLogins(t, { demo: 'demo', other: 'demo-other' });

  const post = (token: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/limited/recipients', headers: bearer(token), payload });
  const put = (token: string, id: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/limited/recipients/${id}`, headers: bearer(token), payload });
  const stored = async (id: string) =>
    (await t.db.select().from(recipients).where(eq(recipients.id, id)))[0]?.documentLanguage;

  it('defaults a new recipient’s to its country’s: SE Swedish, FI Finnish, any other English', async () => {
    const cases: [string, string][] = [
      ['SE', 'sv-SE'],
      ['FI', 'fi-FI'],
      ['DE', 'en-US'],
      ['US', 'en-US'],
    ];
    for (const [country, language] of cases) {
      const body = country === 'FI' ? FINNISH : { ...VALID_RECIPIENT_BODY, country, phone: '' };
      const res = await post(who.demo, { ...body, name: `Land ${country}` });
      expect(res.statusCode, res.body).toBe(200);
      const recipient = recipientSchema.parse(res.json());
      expect(recipient.documentLanguage, country).toBe(language);
      expect(await stored(recipient.recipientID)).toBe(language);
    }
  });

  it('stores a chosen one, changes it, keeps it when a change leaves it out, and refuses an unknown one', async () => {
    const created = await post(who.demo, {
      ...VALID_RECIPIENT_BODY,
      name: 'Engelsk AB',
      documentLanguage: 'en-US',
    });
    const { recipientID, documentLanguage } = recipientSchema.parse(created.json());
    expect(documentLanguage).toBe('en-US');

    const changed = await put(who.demo, recipientID, {
      ...VALID_RECIPIENT_BODY,
      name: 'Engelsk AB',
      documentLanguage: 'fi-FI',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(recipientSchema.parse(changed.json()).documentLanguage).toBe('fi-FI');

    // A change without the field (an older client) keeps the stored language, not the country's.
    const kept = await put(who.demo, recipientID, {
      ...VALID_RECIPIENT_BODY,
      name: 'Engelsk AB',
      city: 'Uppsala',
    });
    expect(recipientSchema.parse(kept.json())).toMatchObject({ city: 'Uppsala', documentLanguage: 'fi-FI' });
    const listed = await t.app.inject({
      url: '/api/limited/recipients?search=Engelsk',
      headers: bearer(who.demo),
    });
    expect(listed.json().items).toEqual([
      expect.objectContaining({ recipientID, documentLanguage: 'fi-FI' }),
    ]);

    for (const bad of ['sv', 'de-DE', '', 7]) {
      const res = await put(who.demo, recipientID, { ...VALID_RECIPIENT_BODY, documentLanguage: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().issues).toContainEqual({ path: 'documentLanguage', code: 'validation.invalid' });
    }
    expect(await stored(recipientID)).toBe('fi-FI');
  });

  it('lets no other issuer change it: 404 and the row unchanged', async () => {
    const created = await post(who.demo, {
      ...VALID_RECIPIENT_BODY,
      name: 'Egen Kund AB',
      documentLanguage: 'sv-SE',
    });
    const { recipientID } = recipientSchema.parse(created.json());
    const res = await put(who.other, recipientID, { ...VALID_RECIPIENT_BODY, documentLanguage: 'en-US' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'recipient.not_found' });
    expect(await stored(recipientID)).toBe('sv-SE');
  });

  it('writes a Finnish recipient’s invoice PDF in Finnish, with Finnish numbers and dates, for a Swedish user', async () => {
    const r = recipientSchema.parse((await post(who.demo, FINNISH)).json());
    expect(r.documentLanguage).toBe('fi-FI');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(who.demo),
      payload: {
        ...VALID_INVOICE_BODY,
        recipientID: r.recipientID,
        invoiceNumber: 'FI-1',
        rows: [
          { name: 'Työ', quantityMilli: 12_500, unit: 'h', unitPriceMinor: 123_450, vatBasisPoints: 2500 },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().invoiceID as string;
    // Asked in English by a Swedish user: still the recipient's Finnish.
    for (const url of [`/api/limited/invoices/${id}/pdf`, `/api/limited/invoices/${id}/pdf?language=en-US`]) {
      const res = await t.app.inject({ url, headers: bearer(who.demo) });
      expect(res.statusCode).toBe(200);
      const { text } = await pdfText(res.rawPayload);
      const plain = text.replace(/[\u00a0\u202f]/g, ' ');
      for (const label of ['Lasku', 'Laskun numero', 'Eräpäivä', 'Nimike', 'Määrä', 'Maksettava', 'Sivu 1/1'])
        expect(plain, label).toContain(label);
      // 12,5 h × 1 234,50 = 15 431,25; + 25 % = 19 289,06 (Finnish: space groups, decimal comma).
      expect(plain).toContain('12,5');
      expect(plain).toContain('1 234,50');
      expect(plain).toContain('15 431,25');
      expect(plain).toContain('19 289,06 SEK');
      expect(plain).toContain('2.3.2026');
      expect(plain).toContain('1.4.2026');
      for (const swedish of ['Att betala', 'Förfallodag', 'Amount due', '2026-04-01'])
        expect(plain, swedish).not.toContain(swedish);
    }
  });
});
