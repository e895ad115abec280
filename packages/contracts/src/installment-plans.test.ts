import { computeInstallmentSchedule } from '@portal/domain/installment-schedule';
import { describe, expect, it } from 'vitest';
import { MAX_PLAN_INSTALLMENTS, MAX_PLAN_TOTAL_MINOR } from './constants';
import { ERROR_CODES } from './errors';
import { INSTALLMENT_PLAN_ROUTES } from './installment-plan-routes';
import {
  type InstallmentPlanBody,
  installmentPlanBodySchema,
  installmentPlanDetailSchema,
  installmentPlanTerms,
  installmentPlanWarnings,
  listInstallmentPlansQuerySchema,
  PLAN_RULE_CODES,
  type PlanParty,
  signeesAsSecurities,
} from './installment-plans';
import { MAX_INVOICE_TOTAL_MINOR } from './invoices';
import { PAGES } from './pages';
import { ROUTES } from './routes';
import { VALIDATION_CODES } from './rules';
import { issueCodes } from './test-support/issue-codes';

const RECIPIENT_ID = '0b6d6f1e-5c55-4b59-9d1a-6f1f2d7c9a01';

const BUYER = {
  name: 'Anna Svensson',
  identityNumber: '811228-9874',
  email: 'anna@example.se',
  phone: '070-123 45 67',
};

const VALID: InstallmentPlanBody = {
  description: 'Köksrenovering, avtal 2026-114',
  recipientID: RECIPIENT_ID,
  currency: 'SEK',
  financedAmountMinor: 1_000_000,
  startDate: '2026-01-31',
  noOfInstallments: 3,
  monthlyFee: 1_900,
  initialFee: 39_500,
  administrationFee: 2_900,
  signees: [BUYER],
};

const codes = (input: unknown) => issueCodes(installmentPlanBodySchema, input);

describe('the register body of an installment plan', () => {
  it('takes a valid plan, with the fees 0 and no securities unless given, the numbers in one form', () => {
    const parsed = installmentPlanBodySchema.parse({
      ...VALID,
      monthlyFee: undefined,
      initialFee: undefined,
      administrationFee: undefined,
    });
    expect(parsed).toMatchObject({ monthlyFee: 0, initialFee: 0, administrationFee: 0, securities: [] });
    expect(parsed.signees).toEqual([{ ...BUYER, identityNumber: '811228-9874', phone: '+46701234567' }]);
  });

  it('accepts the end date and the total the schedule gives, and refuses others', () => {
    // 10 000 kr + 395 kr + 3 × (19 + 29) kr, the last installment due on 30 April.
    expect(codes({ ...VALID, endDate: '2026-04-30', total: 1_053_900 })).toEqual({});
    expect(codes({ ...VALID, endDate: '2026-04-29', total: 1_053_899 })).toEqual({
      endDate: [PLAN_RULE_CODES.endDate],
      total: [PLAN_RULE_CODES.totalMismatch],
    });
  });

  it.each([
    ['before', '2026-01-30'],
    ['on', '2026-01-31'],
  ])('refuses an end date %s the start date (spec §5) with its code', (_when, endDate) => {
    expect(codes({ ...VALID, endDate })).toEqual({ endDate: ['installmentPlans.wrong_date_range'] });
  });

  it('shows the date rule together with the other fields’ and amounts’ issues', () => {
    expect(codes({ ...VALID, description: ' ', endDate: '2025-12-01', total: 1 })).toEqual({
      description: ['validation.required'],
      endDate: ['installmentPlans.wrong_date_range'],
      total: [PLAN_RULE_CODES.totalMismatch],
    });
  });

  it('refuses a plan whose total exceeds the maximum, though each amount is within it', () => {
    expect(
      codes({ ...VALID, financedAmountMinor: MAX_PLAN_TOTAL_MINOR, monthlyFee: 0, administrationFee: 0 }),
    ).toEqual({ total: ['validation.amount_range'] });
    expect(codes({ ...VALID, financedAmountMinor: MAX_PLAN_TOTAL_MINOR + 1 })).toEqual({
      financedAmountMinor: ['validation.amount_range'],
    });
  });

  it('refuses installments of nothing: each becomes an invoice, which must be above zero', () => {
    const plan = { ...VALID, financedAmountMinor: 5, noOfInstallments: 12, monthlyFee: 0, initialFee: 0 };
    expect(codes({ ...plan, administrationFee: 0 })).toEqual({
      financedAmountMinor: [PLAN_RULE_CODES.amountPositive],
    });
    expect(codes({ ...plan, administrationFee: 1 })).toEqual({});
  });

  it.each([
    [{ financedAmountMinor: 0 }, { financedAmountMinor: ['validation.amount_positive'] }],
    [{ financedAmountMinor: 100.5 }, { financedAmountMinor: ['validation.whole_minor_units'] }],
    [{ monthlyFee: -1 }, { monthlyFee: ['validation.amount_range'] }],
    [{ noOfInstallments: 0 }, { noOfInstallments: ['validation.invalid'] }],
    [{ noOfInstallments: MAX_PLAN_INSTALLMENTS + 1 }, { noOfInstallments: ['validation.invalid'] }],
    [{ noOfInstallments: 2.5 }, { noOfInstallments: ['validation.invalid'] }],
    [{ startDate: '2026-02-30' }, { startDate: ['validation.date'] }],
    [{ currency: 'NOK' }, { currency: ['validation.invalid'] }],
    [{ recipientID: 'x' }, { recipientID: ['validation.recipient_required'] }],
    [{ signees: [] }, { signees: [PLAN_RULE_CODES.signeesRequired] }],
  ])('refuses %j at its field', (change, expected) => {
    expect(codes({ ...VALID, ...change })).toEqual(expected);
  });

  it('accepts the most installments', () => {
    expect(codes({ ...VALID, noOfInstallments: MAX_PLAN_INSTALLMENTS, endDate: '2036-01-31' })).toEqual({});
  });

  it('checks each party’s identity number, e-mail and phone, and each number once per list', () => {
    expect(
      codes({
        ...VALID,
        signees: [
          BUYER,
          { ...BUYER, identityNumber: '19811228-9874', email: 'x' },
          { ...BUYER, identityNumber: '811228-9875', phone: '12' },
        ],
        securities: [{ ...BUYER, name: '' }],
      }),
    ).toEqual({
      'signees.1.email': ['validation.email'],
      'signees.1.identityNumber': [PLAN_RULE_CODES.partyRepeated],
      'signees.2.identityNumber': ['validation.organization_number'],
      'securities.0.name': ['validation.required'],
    });
  });

  it('reads a phone number in the country of the identity number', () => {
    const company = { ...BUYER, name: 'Oy Yritys Ab', identityNumber: '0737546-2', phone: '040 123 4567' };
    const parsed = installmentPlanBodySchema.parse({ ...VALID, securities: [company] });
    expect(parsed.securities[0]?.phone).toBe('+358401234567');
    expect(codes({ ...VALID, signees: [{ ...BUYER, phone: '070-12' }] })).toEqual({
      'signees.0.phone': [PLAN_RULE_CODES.phone],
    });
  });

  it('gives the terms the domain computes the schedule the form shows from', () => {
    const schedule = computeInstallmentSchedule(installmentPlanTerms(installmentPlanBodySchema.parse(VALID)));
    expect(schedule.endDate).toBe('2026-04-30');
    expect(schedule.rows.map((r) => r.amountMinor)).toEqual([377_633, 338_133, 338_134]);
  });
});

describe('the warning of spec §5', () => {
  it.each([
    ['2026-01-30', [{ path: 'startDate', code: 'validation.start_date_past' }]],
    ['2026-01-31', []],
    ['2026-02-01', []],
  ])('a start date of %s on 2026-01-31 gives %j, and the plan is still valid', (startDate, warnings) => {
    expect(installmentPlanWarnings({ startDate }, '2026-01-31')).toEqual(warnings);
    expect(codes({ ...VALID, startDate })).toEqual({});
  });
});

describe('importing signees as securities', () => {
  const party = (name: string, identityNumber: string): PlanParty => ({
    name,
    identityNumber,
    email: 'a@example.se',
    phone: '',
  });

  it('adds each signee who is not a security yet, however the number is written', () => {
    const anna = party('Anna', '811228-9874');
    const bo = party('Bo', '701063-2391');
    const annaAgain = party('Anna S', '198112289874');
    expect(signeesAsSecurities([anna, bo], [annaAgain])).toEqual([annaAgain, bo]);
    expect(signeesAsSecurities([anna, bo], [])).toEqual([anna, bo]);
    expect(signeesAsSecurities([anna, annaAgain], [])).toEqual([anna]);
  });
});

describe('the plan list query', () => {
  it('opens newest first, filters one state and refuses a number that is no state', () => {
    expect(listInstallmentPlansQuerySchema.parse({})).toMatchObject({
      sort: 'created',
      order: 'desc',
      page: 1,
    });
    expect(listInstallmentPlansQuerySchema.parse({ state: '7', search: ' LN-1 ' })).toMatchObject({
      state: 7,
      search: 'LN-1',
    });
    for (const state of ['0', '11', 'x', '2.5'])
      expect(listInstallmentPlansQuerySchema.safeParse({ state }).success, state).toBe(false);
  });
});

describe('the plan detail answer', () => {
  it('holds the domain schedule’s rows as its installments', () => {
    const schedule = computeInstallmentSchedule(installmentPlanTerms(installmentPlanBodySchema.parse(VALID)));
    const detail = {
      installmentPlanID: 'p1',
      loanNumber: 'LN-100001',
      description: VALID.description,
      recipientID: RECIPIENT_ID,
      recipientName: 'Anna Svensson',
      state: 1,
      currency: 'SEK',
      startDate: schedule.startDate,
      endDate: schedule.endDate,
      noOfInstallments: 3,
      financedAmountMinor: 1_000_000,
      monthlyFee: 1_900,
      initialFee: 39_500,
      administrationFee: 2_900,
      total: schedule.totalMinor,
      remainingMinor: schedule.totalMinor,
      created: '2026-01-20T10:00:00.000Z',
      installments: schedule.rows.map((row) => ({
        ...row,
        invoiceID: null,
        invoiceState: null,
        remainingMinor: null,
      })),
      signees: [{ ...BUYER, signingStatus: 'pending', signedAt: null, signingLink: null }],
      securities: [],
      replacesPlanID: null,
      replacedByPlanID: null,
      openPrincipalMinor: 0,
      events: [],
    };
    expect(installmentPlanDetailSchema.parse(detail).installments).toHaveLength(3);
  });
});

describe('the plan rules, routes and bounds', () => {
  it('has every rule code translated as an error or a field rule', () => {
    const known = [...ERROR_CODES, ...VALIDATION_CODES.map((code) => `validation.${code}`)] as string[];
    for (const code of Object.values(PLAN_RULE_CODES)) expect(known, code).toContain(code);
  });

  it('keeps a plan’s total to what one invoice may be, since each installment becomes one', () => {
    expect(MAX_PLAN_TOTAL_MINOR).toBe(MAX_INVOICE_TOTAL_MINOR);
    expect(MAX_PLAN_INSTALLMENTS).toBe(120);
  });

  it('gives every customer plan call the pages’ ability; the decision is the back office’s, the callback public; all in ROUTES', () => {
    for (const [op, def] of Object.entries(INSTALLMENT_PLAN_ROUTES)) {
      expect(ROUTES).toHaveProperty(op, def);
      if (op === 'decideInstallmentPlan') {
        expect(def).toMatchObject({
          auth: 'operator',
          path: '/api/backoffice/installmentplans/:id/decision',
        });
        continue;
      }
      if (op === 'receiveESigningCallback') {
        expect(def).toMatchObject({ auth: 'public', permission: null });
        continue;
      }
      expect(def.path.startsWith('/api/limited/installmentplans'), op).toBe(true);
      expect([def.permission]).toEqual(PAGES.installmentPlans.abilities);
      expect([def.permission]).toEqual(PAGES.installmentRegister.abilities);
      expect(def.auth).toBe('session');
    }
    const keys = Object.values(INSTALLMENT_PLAN_ROUTES).map((d) => `${d.method} ${d.path}`);
    const all = Object.values(ROUTES).map((d) => `${d.method} ${d.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(all).size).toBe(all.length);
  });
});
