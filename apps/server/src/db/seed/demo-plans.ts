import { randomBytes } from 'node:crypto';
import { ABILITIES, INVOICE_STATE, type ParsedInstallmentPlanBody, PLAN_STATE } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { luhnCheckDigit } from '@portal/domain/luhn';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AuthContext, OperatorContext } from '../../context';
import { createESigningClient } from '../../modules/e-signing/e-signing.client';
import { startESigningSandbox } from '../../modules/e-signing/e-signing.sandbox';
import { type ESigningProvider, readSigningState } from '../../modules/e-signing/e-signing.service';
import {
  applySigningState,
  cancelPlan,
  decidePlan,
  getPlan,
  recordInstallmentPayments,
  registerPlan,
  sendForSigning,
} from '../../modules/installments/installments.service';
import { importBgmaxFile, incomingPaymentsFile } from '../../modules/money/money.service';
import type { FileStore } from '../../services/file-store';
import type { Db, Tx } from '../client';
import {
  installmentPlanParties,
  installmentPlanRows,
  installmentPlans,
  invoices,
  recipients,
} from '../schema';
import type { DemoDayStep } from './demo-business';

/**
 * The demo's installment plans (issue #14, docs/INSTALLMENTS.md): Demo Bygg AB's plans in every state,
 * each lived through by the real code over the simulated months (`seedDemoBusiness`'s
 * days): registered and sent for signing through the installments service, signed or refused on the
 * e-signing sandbox's page (its protocol: the signee's link, the eID's personal number) and the
 * order's state read back from the provider, our credit decision, the daily job's installment
 * invoices, final notice and recall, the buyers' payments as BGMAX files through the real import, and
 * the payout run of the financed amount.
 */

/** Where the seed signs: a provider and our callback address (null: the seed reads the state itself). */
export interface DemoSigning {
  provider: ESigningProvider;
  callbackUrl: string | null;
}

/** A Swedish personal identity number of a birth date and a serial, with its Luhn check digit. */
function personalNumber(birth: string, serial: number): string {
  const nine = `${birth.slice(2)}${String(serial).padStart(3, '0')}`;
  return `${birth}-${String(serial).padStart(3, '0')}${luhnCheckDigit(nine)}`;
}

type Fate =
  | 'registered'
  | 'sent'
  | 'signed'
  | 'refused'
  | 'rejected'
  | 'cancelled'
  | 'paysOnTime'
  | 'stopsPaying'
  | 'replaced';

interface DemoPlan {
  description: string;
  /** Days before today the customer registers it; sent the next day, signed the day after, decided the next. */
  registeredAgo: number;
  /** Days from registration to the start date (the loan's first day). */
  startsAfter: number;
  noOfInstallments: number;
  financedMinor: number;
  fate: Fate;
  signee: { name: string; birth: string; serial: number; email: string };
}

/**
 * The plan `replaced` pays on time until, this many days after it was registered, the customer
 * registers a new plan over its open principal (a longer term for the buyer) which is sent, signed and
 * approved the same day, so no daily run between them moves the old plan's open principal.
 */
const REPLACED_AFTER = 100;

/**
 * The plans and what becomes of them. The ones collected start long enough ago for the daily job to
 * bring them where they stand today: paid on time (3 installments: completed; 12: active), or never
 * paid (6 installments whose first fell due 40 days ago: the final notice, still running; 100 days ago:
 * the notice ran out and the rest was recalled).
 */
const PLANS: DemoPlan[] = [
  {
    description: 'Altan i lärkträ med trappa',
    registeredAgo: 232,
    startsAfter: 7,
    noOfInstallments: 3,
    financedMinor: 2_400_000,
    fate: 'paysOnTime',
    signee: { name: 'Karin Lundqvist', birth: '19720304', serial: 412, email: 'karin.lundqvist@example.se' },
  },
  {
    description: 'Badrumsrenovering med golvvärme',
    registeredAgo: 132,
    startsAfter: 7,
    noOfInstallments: 12,
    financedMinor: 9_600_000,
    fate: 'paysOnTime',
    signee: { name: 'Per Holmberg', birth: '19650917', serial: 233, email: 'per.holmberg@example.se' },
  },
  {
    description: 'Takomläggning, betongpannor',
    registeredAgo: 78,
    startsAfter: 7,
    noOfInstallments: 6,
    financedMinor: 6_000_000,
    fate: 'stopsPaying',
    signee: { name: 'Lena Sjöberg', birth: '19800522', serial: 168, email: 'lena.sjoberg@example.se' },
  },
  {
    description: 'Tilläggsisolering och fönsterbyte',
    registeredAgo: 138,
    startsAfter: 7,
    noOfInstallments: 6,
    financedMinor: 4_500_000,
    fate: 'stopsPaying',
    signee: { name: 'Johan Ek', birth: '19581130', serial: 357, email: 'johan.ek@example.se' },
  },
  {
    description: 'Fönsterbyte, tolv fönster',
    registeredAgo: 190,
    startsAfter: 7,
    noOfInstallments: 12,
    financedMinor: 7_200_000,
    fate: 'replaced',
    signee: { name: 'Gustav Dahl', birth: '19700108', serial: 451, email: 'gustav.dahl@example.se' },
  },
  {
    description: 'Köksrenovering med vitvaror',
    registeredAgo: 2,
    startsAfter: 14,
    noOfInstallments: 24,
    financedMinor: 18_000_000,
    fate: 'registered',
    signee: { name: 'Anna Andersson', birth: '19811218', serial: 987, email: 'anna@example.se' },
  },
  {
    description: 'Bergvärmepump 12 kW',
    registeredAgo: 3,
    startsAfter: 14,
    noOfInstallments: 36,
    financedMinor: 14_500_000,
    fate: 'sent',
    signee: { name: 'Maria Nilsson', birth: '19770614', serial: 246, email: 'maria.nilsson@example.se' },
  },
  {
    description: 'Solcellsanläggning 10 kW',
    registeredAgo: 6,
    startsAfter: 14,
    noOfInstallments: 24,
    financedMinor: 12_000_000,
    fate: 'signed',
    signee: { name: 'Erik Berg', birth: '19690203', serial: 135, email: 'erik.berg@example.se' },
  },
  {
    description: 'Garageport med motor',
    registeredAgo: 25,
    startsAfter: 14,
    noOfInstallments: 12,
    financedMinor: 3_200_000,
    fate: 'refused',
    signee: { name: 'Sofia Larsson', birth: '19880719', serial: 524, email: 'sofia.larsson@example.se' },
  },
  {
    description: 'Poolbygge med värmepump',
    registeredAgo: 18,
    startsAfter: 14,
    noOfInstallments: 48,
    financedMinor: 28_000_000,
    fate: 'rejected',
    signee: { name: 'Oskar Wikström', birth: '19910826', serial: 318, email: 'oskar.wikstrom@example.se' },
  },
  {
    description: 'Fasadmålning, två våningar',
    registeredAgo: 12,
    startsAfter: 14,
    noOfInstallments: 6,
    financedMinor: 2_800_000,
    fate: 'cancelled',
    signee: { name: 'Ingrid Holm', birth: '19540411', serial: 269, email: 'ingrid.holm@example.se' },
  },
];

/** The plan's terms as the customer fills in the form on `day`. */
function bodyOf(plan: DemoPlan, recipientID: string, day: string): ParsedInstallmentPlanBody {
  return {
    description: plan.description,
    recipientID,
    currency: 'SEK',
    financedAmountMinor: plan.financedMinor,
    startDate: addDays(day, plan.startsAfter),
    noOfInstallments: plan.noOfInstallments,
    monthlyFee: 4_900,
    initialFee: 39_500,
    administrationFee: 2_900,
    signees: [
      {
        name: plan.signee.name,
        identityNumber: personalNumber(plan.signee.birth, plan.signee.serial),
        email: plan.signee.email,
        phone: '',
      },
    ],
    securities: [],
  };
}

/** What `seedDemoPlans` needs of the demo: Demo Bygg AB, Dana, the operator, the signing provider, the files. */
export interface DemoPlansInput {
  issuerId: string;
  userId: string;
  operator: OperatorContext;
  bankgiro: string;
  today: string;
  files: FileStore;
  /** Where the plan left waiting for its signee is sent: the running app's provider (`npm start`). */
  liveSigning: DemoSigning | undefined;
}

/**
 * The demo's plans as a day step of the simulated months, with the e-signing sandbox the seed signs
 * on. The sandbox runs on the simulated clock and is stopped by `close` (the plan waiting for its
 * signee is sent to `liveSigning` when there is one, so its link leads to the sandbox `npm start`
 * keeps running).
 */
export async function demoPlans(
  tx: Tx,
  input: DemoPlansInput,
): Promise<{ step: DemoDayStep; close: () => Promise<void> }> {
  const db = tx as unknown as Db;
  let simulated = new Date(`${addDays(input.today, -400)}T00:00:00Z`);
  const credentials = {
    apiToken: `portal-seed_${randomBytes(4).toString('hex')}`,
    apiSecret: randomBytes(12).toString('hex'),
    accessToken: `portal-seed_${randomBytes(4).toString('hex')}`,
    accessSecret: randomBytes(12).toString('hex'),
  };
  const sandbox = await startESigningSandbox({ ...credentials, host: '127.0.0.1', now: () => simulated });
  const seedSigning: DemoSigning = {
    provider: {
      client: createESigningClient({ apiUrl: sandbox.apiUrl, ...credentials }),
      demo: true,
      callbackKey: randomBytes(32),
    },
    callbackUrl: null,
  };
  const auth: AuthContext = {
    sessionId: 'seed',
    userId: input.userId,
    issuerId: input.issuerId,
    username: 'demo',
    abilities: [...ABILITIES],
    setupRequired: false,
  };
  // The buyers are the business's recipients, written when its simulation begins.
  const buyersOf = () =>
    tx
      .select({ id: recipients.id })
      .from(recipients)
      .where(eq(recipients.issuerId, input.issuerId))
      .orderBy(asc(recipients.name))
      .limit(PLANS.length);
  let buyers: { id: string }[] = [];
  const ids = new Map<DemoPlan, string>();
  /** The plans that took over another's debt, by the plan they replaced. */
  const replacements = new Map<DemoPlan, string>();
  const signingOf = (plan: DemoPlan) =>
    plan.fate === 'sent' && input.liveSigning ? input.liveSigning : seedSigning;
  let fileNo = 0;

  /** The signee opens the link and signs with the personal number (or refuses), and the state is read back. */
  async function signeeDecides(plan: DemoPlan, id: string, decision: 'sign' | 'reject', now: Date) {
    const [party] = await tx
      .select({ link: installmentPlanParties.signingLink })
      .from(installmentPlanParties)
      .where(and(eq(installmentPlanParties.planId, id), eq(installmentPlanParties.role, 'signee')));
    const [row] = await tx
      .select({ documentId: installmentPlans.signingDocumentId })
      .from(installmentPlans)
      .where(eq(installmentPlans.id, id));
    if (!party?.link || !row?.documentId)
      throw new Error(`seed: plan ${plan.description} has no signing order`);
    const form: Record<string, string> =
      decision === 'sign'
        ? { decision, personal_number: personalNumber(plan.signee.birth, plan.signee.serial) }
        : { decision, reason: 'Beloppet stämmer inte med offerten.' };
    const answer = await fetch(party.link, { method: 'POST', body: new URLSearchParams(form) });
    if (!answer.ok) throw new Error(`seed: the signing page answered ${answer.status}`);
    const { provider } = signingOf(plan);
    await applySigningState(
      db,
      { provider, files: input.files },
      await readSigningState(provider, row.documentId),
      now,
    );
  }

  /** The buyers who pay on time pay each installment invoice on its due date, by its OCR reference. */
  async function payDueInstallments(day: string, clock: (utcTime: string) => Date) {
    const paying = [
      ...PLANS.filter((p) => p.fate === 'paysOnTime' || p.fate === 'replaced').map((p) => ids.get(p)),
      ...replacements.values(),
    ].filter((id): id is string => id !== undefined);
    if (paying.length === 0) return;
    const due = await tx
      .select({ ocr: invoices.ocr, remaining: invoices.remainingMinor, state: invoices.state })
      .from(installmentPlanRows)
      .innerJoin(invoices, eq(invoices.id, installmentPlanRows.invoiceId))
      .where(
        and(
          inArray(installmentPlanRows.planId, paying),
          isNotNull(installmentPlanRows.invoiceId),
          eq(installmentPlanRows.dueDate, day),
        ),
      );
    const payments = due
      .filter((d) => d.ocr && d.remaining > 0 && d.state !== INVOICE_STATE.paid)
      .map((d) => ({ reference: d.ocr ?? '', amountMinor: d.remaining, name: 'Avbetalning' }));
    if (payments.length === 0) return;
    fileNo++;
    await importBgmaxFile(
      db,
      incomingPaymentsFile({
        paymentDate: day,
        deposits: [{ bankgiro: input.bankgiro, payments }],
        firstSerial: 900_000 + fileNo * 100,
        firstDeposit: 90_000 + fileNo,
      }),
      {
        filename: `bgmax-plans-${day}.txt`,
        operatorId: input.operator.operatorId,
        now: clock('11:30:00'),
        afterApplied: recordInstallmentPayments,
      },
    );
  }

  /**
   * The customer replaces the plan by a new one over its open principal, 24 months from two weeks on;
   * the buyer signs and we approve it the same day (docs/INSTALLMENTS.md: the old plan becomes 6).
   */
  async function replace(plan: DemoPlan, id: string, day: string, clock: (utcTime: string) => Date) {
    const old = await getPlan(db, input.issuerId, id);
    const terms = { ...plan, startsAfter: 14, noOfInstallments: 24, financedMinor: old.openPrincipalMinor };
    const body = { ...bodyOf(terms, old.recipientID, day), replacesPlanID: id };
    const created = await registerPlan(db, auth, body, {}, clock('10:00:00'));
    const newId = created.installmentPlanID;
    replacements.set(plan, newId);
    await sendForSigning(db, auth, newId, { ...seedSigning, files: input.files }, clock('10:10:00'));
    await signeeDecides(plan, newId, 'sign', clock('16:45:00'));
    await decidePlan(db, input.operator, newId, 'approved', clock('17:30:00'));
  }

  const step: DemoDayStep = async (day, clock) => {
    simulated = clock('09:00:00');
    for (const [index, plan] of PLANS.entries()) {
      const registeredOn = addDays(input.today, -plan.registeredAgo);
      if (day < registeredOn) continue;
      const since = Math.round((Date.parse(day) - Date.parse(registeredOn)) / 86_400_000);
      const id = ids.get(plan);
      if (since === 0) {
        if (buyers.length === 0) buyers = await buyersOf();
        const buyer = buyers[index % buyers.length];
        if (!buyer) throw new Error('seed: no buyers for the plans');
        const body = bodyOf(plan, buyer.id, day);
        const created = await registerPlan(db, auth, body, {}, clock('09:00:00'));
        ids.set(plan, created.installmentPlanID);
        continue;
      }
      if (!id || plan.fate === 'registered') continue;
      if (since === 1) {
        const { provider, callbackUrl } = signingOf(plan);
        await sendForSigning(db, auth, id, { provider, callbackUrl, files: input.files }, clock('09:15:00'));
      } else if (since === 2 && plan.fate === 'refused') {
        await signeeDecides(plan, id, 'reject', clock('18:20:00'));
      } else if (since === 2 && plan.fate === 'cancelled') {
        await cancelPlan(db, auth, id, seedSigning.provider, clock('10:05:00'));
      } else if (since === 2 && plan.fate !== 'sent') {
        await signeeDecides(plan, id, 'sign', clock('19:40:00'));
      } else if (since === 3 && ['rejected', 'paysOnTime', 'stopsPaying', 'replaced'].includes(plan.fate)) {
        const decision = plan.fate === 'rejected' ? 'rejected' : 'approved';
        await decidePlan(db, input.operator, id, decision, clock('08:30:00'));
      } else if (since === REPLACED_AFTER && plan.fate === 'replaced') {
        await replace(plan, id, day, clock);
      }
    }
    await payDueInstallments(day, clock);
  };
  return { step, close: () => sandbox.close() };
}

/** The states the demo's plans reach (every one), for the seed's test. */
export const DEMO_PLAN_STATES = [
  PLAN_STATE.replaced,
  PLAN_STATE.registered,
  PLAN_STATE.active,
  PLAN_STATE.completed,
  PLAN_STATE.cancelled,
  PLAN_STATE.recalled,
  PLAN_STATE.finalNotice,
  PLAN_STATE.sentForSigning,
  PLAN_STATE.signed,
  PLAN_STATE.agreementRejected,
] as const;
