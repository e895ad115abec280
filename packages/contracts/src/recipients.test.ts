import { describe, expect, it } from 'vitest';
import { RECIPIENT_ISSUES, recipientBodySchema } from './recipients';

const BODY = { name: 'Kund AB', zipcode: '111 22', city: 'Stockholm', email: 'faktura@kund.se' };

/** The issues of a body as `{ path: code }`, or the parsed body. */
function check(body: Record<string, unknown>) {
  const result = recipientBodySchema.safeParse({ ...BODY, ...body });
  if (result.success) return { data: result.data };
  return { issues: Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message])) };
}

describe('recipientBodySchema (issue #11)', () => {
  it.each(['556036-0794', '811228-9875', '811328-9873', '0112038-8', '1000008-0', '123'])(
    'refuses the party number %s with the shared code',
    (organizationNumber) => {
      expect(check({ organizationNumber }).issues).toEqual({
        organizationNumber: 'validation.organization_number',
      });
    },
  );

  it.each([
    ['5560360793', '556036-0793'],
    ['165560360793', '556036-0793'],
    ['811228-9874', '811228-9874'],
    ['701063-2391', '701063-2391'],
    ['0112038-9', '0112038-9'],
    ['', ''],
  ])('takes the party number %s and stores it as %s', (organizationNumber, stored) => {
    expect(check({ organizationNumber }).data?.organizationNumber).toBe(stored);
  });

  it.each([
    ['08-123 456 78', 'SE', '+46812345678'],
    ['070-123 45 67', 'SE', '+46701234567'],
    ['040 123 4567', 'FI', '+358401234567'],
    ['09 123 4567', 'FI', '+35891234567'],
    ['+46 8 123 456 78', 'FI', '+46812345678'],
    ['', 'SE', ''],
  ])('stores the phone number %s of a recipient in %s as %s', (phone, country, e164) => {
    expect(check({ phone, country }).data?.phone).toBe(e164);
  });

  it('reads a national phone number in the recipient country, SE when none is given', () => {
    expect(check({ phone: '08 123 4567' }).data?.phone).toBe('+4681234567');
    expect(check({ phone: '08 123 4567', country: 'FI' }).data?.phone).toBe('+35881234567');
  });

  it('refuses what cannot be a phone number, beside the other fields’ issues', () => {
    expect(check({ phone: 'call me', email: 'nope' }).issues).toEqual({
      phone: RECIPIENT_ISSUES.phoneInvalid,
      email: 'validation.email',
    });
    expect(check({ phone: '123' }).issues).toEqual({ phone: 'recipient.phone_invalid' });
  });

  it.each([
    ['an array', []],
    ['a deeply nested array', [[[[]]]]],
    ['null', null],
    ['a string', 'Kund AB'],
  ])('refuses %s as a body without throwing', (_, body) => {
    const result = recipientBodySchema.safeParse(body);
    expect(result.success).toBe(false);
  });
});
