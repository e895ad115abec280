// Over 500 lines on purpose: the demo's simulated months in one file (each day's invoices, sends,
// decisions, payments, reminders, payouts and the plans' day step, in calendar order), so the demo's
// story reads top to bottom.
import {
  documentLanguageForCountry,
  FINANCED_SERVICES,
  INVOICE_EVENT,
  INVOICE_STATE,
  isUnpaidState,
  type ParsedInvoiceBody,
  type ServiceType,
  type UNITS,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { dueDate } from '@portal/domain/due-date';
import { luhnCheckDigit } from '@portal/domain/luhn';
import { DEFAULT_REFERENCE_RATE_BP } from '@portal/domain/money-flow';
import { toE164PhoneNumber } from '@portal/domain/phone-number';
import { eq, inArray } from 'drizzle-orm';
import type { OperatorContext } from '../../context';
import { todayIn } from '../../lib/today';
import { runPlanSteps } from '../../modules/installments/installments.service';
import {
  decideCredit,
  deletePendingInvoice,
  sendInvoicesInTransaction,
  writeInvoice,
} from '../../modules/invoices/invoices.service';
import {
  importBgmaxFile,
  incomingPaymentsFile,
  runDailyJob,
  runPayout,
} from '../../modules/money/money.service';
import { databaseFileStore } from '../../services/file-store';
import type { Db, Tx } from '../client';
import { articles, companies, invoiceEvents, invoices, messages, operators, recipients } from '../schema';
import { DEMO_BANKGIROS, DEMO_OPERATOR } from './demo-constants';

/** A small deterministic PRNG (mulberry32), so the demo data is the same on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

/** A valid Swedish organisation number from a 9-digit base (Luhn check digit added). */
function orgNumber(base: number): string {
  const digits = String(base).padStart(9, '0');
  const ten = digits + String(luhnCheckDigit(digits));
  return `${ten.slice(0, 6)}-${ten.slice(6)}`;
}

const FIRST = ['Norr', 'Söder', 'Väst', 'Öst', 'Berg', 'Sjö', 'Skog', 'Ek', 'Lind', 'Sten', 'Björk', 'Ås'];
const SECOND = [
  'bygg',
  'el',
  'rör',
  'måleri',
  'trä',
  'plåt',
  'städ',
  'transport',
  'mark',
  'glas',
  'data',
  'konsult',
];
/**
 * Industry codes (SNI 2007) of the demo customers: building, installation, trade, transport,
 * restaurants, IT, consulting, cleaning and property management.
 */
const SNI_CODES = [
  '41200',
  '43210',
  '43220',
  '46900',
  '47190',
  '49410',
  '56100',
  '62010',
  '70220',
  '81210',
  '68203',
  '71121',
];

const CITIES: [string, string][] = [
  ['Stockholm', '114 35'],
  ['Göteborg', '411 05'],
  ['Malmö', '211 20'],
  ['Uppsala', '753 20'],
  ['Västerås', '722 15'],
  ['Örebro', '702 10'],
  ['Linköping', '582 24'],
  ['Umeå', '903 26'],
  ['Luleå', '972 31'],
  ['Sundsvall', '852 30'],
];

const ARTICLE_TEMPLATES: [string, string, (typeof UNITS)[number], number, number, boolean][] = [
  ['ARB-01', 'Arbetstimme snickare', 'h', 65_000, 2500, true],
  ['ARB-02', 'Arbetstimme elektriker', 'h', 72_000, 2500, true],
  ['ARB-03', 'Arbetstimme målare', 'h', 58_000, 2500, true],
  ['ARB-04', 'Arbetstimme städ', 'h', 45_000, 2500, true],
  ['RES-01', 'Resa', 'km', 3_500, 2500, false],
  ['RES-02', 'Utlägg parkering', 'utl', 15_000, 2500, false],
  ['MAT-01', 'Gipsskiva 13 mm', 'st', 12_900, 2500, false],
  ['MAT-02', 'Reglar 45x95, 3 m', 'st', 8_950, 2500, false],
  ['MAT-03', 'Färg 10 l', 'st', 129_000, 2500, false],
  ['MAT-04', 'Kabel EKK 3G1,5, 50 m', 'pack', 89_900, 2500, false],
  ['MAT-05', 'Kakel, kartong', 'pack', 45_900, 2500, false],
  ['MAT-06', 'Skruv 4,2x35, 500 st', 'pack', 24_900, 2500, false],
  ['HYR-01', 'Maskinhyra per dag', 'st', 95_000, 2500, false],
  ['HYR-02', 'Ställning per vecka', 'st', 250_000, 2500, false],
  ['AVF-01', 'Bortforsling avfall', 'st', 150_000, 2500, false],
  ['LIT-01', 'Facklitteratur', 'st', 39_900, 600, false],
  ['MAT-07', 'Mat vid övertid', 'st', 12_000, 1200, false],
  ['PRO-01', 'Projektledning', 'h', 95_000, 2500, false],
  ['DOK-01', 'Dokumentation och egenkontroll', 'st', 120_000, 2500, false],
  ['GAR-01', 'Garantibesiktning', 'st', 190_000, 2500, false],
];

/**
 * The register and invoice history of Demo Bygg AB: ~30 recipients, 20 articles, and a few hundred
 * invoices over the last 14 months, plus the embedded company register for company search. The
 * invoices live their lives through the real money flow (`simulate`): sent, decided, paid out, paid
 * by BGMAX files, reminded, charged back, so every state, event and report is real.
 */
export async function seedDemoBusiness(
  tx: Tx,
  issuerId: string,
  userId: string,
  now: Date,
  alsoEachDay?: DemoDayStep,
): Promise<void> {
  const rnd = prng(20261122);
  const today = todayIn(now);

  const companyRows = Array.from({ length: 60 }, (_, i) => {
    const [city, zipcode] = CITIES[i % CITIES.length] as [string, string];
    // Every round of the first parts takes the second parts 5 further on (5 and 12 share no factor), so
    // the 60 names (and the 30 recipients' names) are all different.
    const second = SECOND[(i + Math.floor(i / FIRST.length) * 5) % SECOND.length];
    const name = `${FIRST[i % FIRST.length]}${second} ${i % 5 === 0 ? 'HB' : 'AB'}`;
    const org = orgNumber(556_100_000 + i * 1373);
    return {
      organizationNumber: org,
      name,
      address: `${FIRST[(i * 5) % FIRST.length]}gatan ${1 + (i % 40)}`,
      zipcode,
      city,
      country: 'SE',
      vat: `SE${org.replace('-', '')}01`,
    };
  });
  await tx.insert(companies).values(companyRows).onConflictDoNothing();

  const recipientRows = companyRows.slice(0, 30).map((c, i) => ({
    issuerId,
    name: c.name,
    address: c.address,
    zipcode: c.zipcode,
    city: c.city,
    country: 'SE',
    email: `faktura${i + 1}@${c.name.toLowerCase().replace(/[^a-z]/g, '')}.se`,
    // Stored in E.164 as the recipient form stores it (issue #11): 08-xxx xx xx → +468xxxxxxx.
    phone:
      toE164PhoneNumber(
        `08-${String(100_000 + i * 7919).slice(0, 3)} ${String(10 + i).padStart(2, '0')} ${String(30 + i).padStart(2, '0')}`,
        'SE',
      ) ?? '',
    organizationNumber: c.organizationNumber,
    vat: c.vat,
    sni: SNI_CODES[(i * 5) % SNI_CODES.length] ?? '',
    documentLanguage: documentLanguageForCountry('SE'),
  }));
  const createdRecipients = await tx
    .insert(recipients)
    .values(recipientRows)
    .returning({ id: recipients.id, name: recipients.name });

  await tx.insert(articles).values(
    ARTICLE_TEMPLATES.map(([articleNumber, name, unit, priceMinor, vatBasisPoints]) => ({
      issuerId,
      articleNumber,
      name,
      description: '',
      priceMinor,
      currency: 'SEK',
      unit,
      vatBasisPoints,
    })),
  );

  const services: ServiceType[] = [
    'factoring',
    'factoring',
    'factoring',
    'invoicingService',
    'nonRecourseFactoring',
    'invoiceLoans',
  ];
  const count = 320;
  const plans: Plan[] = [];
  for (let n = 0; n < count; n++) {
    const ageDays = Math.floor(((count - n) / count) * 425) + rnd.int(0, 3);
    const invoiceDate = addDays(today, -ageDays);
    const terms = rnd.pick([10, 20, 30, 30, 45]);
    const due = dueDate(invoiceDate, terms);
    const service = rnd.pick(services);
    const rows = Array.from({ length: rnd.int(1, 5) }, () => {
      const a = rnd.pick(ARTICLE_TEMPLATES);
      return {
        articleNumber: a[0],
        name: a[1],
        description: '',
        quantityMilli: a[2] === 'h' ? rnd.int(2, 40) * 500 : rnd.int(1, 12) * 1000,
        unit: a[2],
        unitPriceMinor: a[3],
        vatBasisPoints: a[4],
        rotRut: false,
      };
    });
    plans.push({
      invoiceNumber: String(10_001 + n),
      recipientId: (rnd.pick(createdRecipients) as { id: string }).id,
      service,
      invoiceDate,
      dueDate: due,
      rows,
      orderReference: rnd.next() < 0.3 ? `PO-${rnd.int(1000, 9999)}` : '',
      fate: fateOf(ageDays, service, rnd.next()),
      payer: payerOf(rnd),
    });
  }
  // Sent this morning with a collected-only service: queued (6) until tomorrow's daily job distributes
  // it, so the list's "queued" filter has an invoice. Appended after the random plans, which it leaves
  // as they were.
  const [articleNumber, articleName, unit, unitPriceMinor, vatBasisPoints] = ARTICLE_TEMPLATES[0] ?? [];
  if (!articleNumber || !articleName || !unit || unitPriceMinor === undefined || vatBasisPoints === undefined)
    throw new Error('seed: no article template');
  plans.push({
    invoiceNumber: String(10_001 + count),
    recipientId: (createdRecipients[0] as { id: string }).id,
    service: 'invoicingService',
    invoiceDate: today,
    dueDate: addDays(today, 30),
    rows: [
      {
        articleNumber,
        name: articleName,
        description: '',
        quantityMilli: 4_000,
        unit,
        unitPriceMinor,
        vatBasisPoints,
        rotRut: false,
      },
    ],
    orderReference: '',
    fate: 'sent',
    payer: { payments: [], extraMinor: 0 },
  });
  await simulate(tx, { issuerId, userId, now, today, plans, bankgiro: DEMO_BANKGIROS.bygg, alsoEachDay });
}

/**
 * What else the demo does on a simulated day, after the daily job and the day's invoices and
 * decisions, before the payout run (the installment plans, demo-plans.ts). `clock` gives the day's
 * instant at a UTC time, never after `now`.
 */
export type DemoDayStep = (day: string, clock: (utcTime: string) => Date) => Promise<void>;

/** What the customer does with an invoice: keep it pending, delete it, or send it (and we decide). */
type Fate = 'pending' | 'deleted' | 'rejected' | 'awaiting' | 'sent';

/** How the recipient pays: days after the due date and shares of the amount; never = stays unpaid. */
interface Payer {
  payments: { dayAfterDue: number; shareBp: number }[];
  /** Paid beyond the amount to pay, minor units (on the last payment). */
  extraMinor: number;
}

interface Plan {
  invoiceNumber: string;
  recipientId: string;
  service: ServiceType;
  invoiceDate: string;
  dueDate: string;
  rows: {
    articleNumber: string;
    name: string;
    description: string;
    quantityMilli: number;
    unit: (typeof UNITS)[number];
    unitPriceMinor: number;
    vatBasisPoints: number;
    rotRut: boolean;
  }[];
  orderReference: string;
  fate: Fate;
  payer: Payer;
}

function fateOf(ageDays: number, service: ServiceType, roll: number): Fate {
  if (ageDays <= 6 && roll < 0.5) return 'pending';
  // Sent in the last week: the credit decision is still ours to make (the back office's queue).
  if (ageDays <= 6) return 'awaiting';
  if (roll < 0.03) return 'deleted';
  if (FINANCED_SERVICES.includes(service) && roll < 0.07) return 'rejected';
  return 'sent';
}

function payerOf(rnd: ReturnType<typeof prng>): Payer {
  const roll = rnd.next();
  if (roll < 0.55) return { payments: [{ dayAfterDue: -rnd.int(0, 8), shareBp: 10_000 }], extraMinor: 0 };
  if (roll < 0.67) return { payments: [{ dayAfterDue: rnd.int(12, 32), shareBp: 10_000 }], extraMinor: 0 };
  if (roll < 0.75) {
    const first = rnd.int(4_000, 7_000);
    const rest = rnd.next() < 0.7 ? [{ dayAfterDue: rnd.int(20, 35), shareBp: 10_000 - first }] : [];
    return { payments: [{ dayAfterDue: rnd.int(0, 5), shareBp: first }, ...rest], extraMinor: 0 };
  }
  if (roll < 0.77)
    return { payments: [{ dayAfterDue: 0, shareBp: 10_000 }], extraMinor: rnd.int(1, 20) * 5_000 };
  if (roll < 0.84) return { payments: [], extraMinor: 0 };
  return { payments: [{ dayAfterDue: 0, shareBp: 10_000 }], extraMinor: 0 };
}

/** The demo operator as the seed's back-office work names it (session `seed`); its row is written first. */
export async function demoOperatorOf(tx: Tx): Promise<OperatorContext> {
  const [operator] = await tx.select().from(operators).where(eq(operators.username, DEMO_OPERATOR));
  if (!operator) throw new Error('seed: the demo operator comes first');
  return { sessionId: 'seed', operatorId: operator.id, username: operator.username, name: operator.name };
}

const at = (day: string, utcTime: string) => new Date(`${day}T${utcTime}Z`);

/**
 * Runs the money flow of docs/MONEY.md day by day from the first invoice to today with the real code:
 * the daily job every morning, the customer registering and sending, our credit decisions the next
 * day, the recipients' payments as BGMAX files imported the day they pay, and payout runs on Tuesdays
 * and Fridays. Every state, event, posting, settlement and report of the demo is made by it.
 */
async function simulate(
  tx: Tx,
  s: {
    issuerId: string;
    userId: string;
    now: Date;
    today: string;
    plans: Plan[];
    bankgiro: string;
    alsoEachDay: DemoDayStep | undefined;
  },
): Promise<void> {
  const db = tx as unknown as Db;
  const who = await demoOperatorOf(tx);
  const byDay = new Map<string, Plan[]>();
  for (const plan of s.plans) byDay.set(plan.invoiceDate, [...(byDay.get(plan.invoiceDate) ?? []), plan]);
  const first = s.plans.map((p) => p.invoiceDate).sort()[0] ?? s.today;
  const sentOn = new Map<string, { id: string; plan: Plan }[]>();
  const paymentsOn = new Map<string, { plan: Plan; id: string; shareBp: number; extraMinor: number }[]>();
  const rateBp = DEFAULT_REFERENCE_RATE_BP;
  let fileNo = 0;
  for (let day = first; day <= s.today; day = addDays(day, 1)) {
    const clock = (time: string) => {
      const t = at(day, time);
      return t > s.now ? s.now : t;
    };
    await runDailyJob(db, {
      date: day,
      now: clock('05:00:00'),
      referenceRateBp: rateBp,
      plans: runPlanSteps,
    });

    for (const plan of byDay.get(day) ?? []) {
      const id = await registerPlanned(tx, s.issuerId, s.userId, plan, clock('07:00:00'));
      if (plan.fate === 'pending') continue;
      if (plan.fate === 'deleted') {
        await deletePendingInvoice(tx, { issuerId: s.issuerId, userId: s.userId }, id, clock('07:10:00'));
        continue;
      }
      // The demo registers no uploaded invoices, so the file store is never read here.
      await sendInvoicesInTransaction(
        tx,
        { issuerId: s.issuerId, userId: s.userId },
        [id],
        clock('07:30:00'),
        databaseFileStore(db),
      );
      const next = addDays(day, 1);
      sentOn.set(next, [...(sentOn.get(next) ?? []), { id, plan }]);
      plan.payer.payments.forEach((p, index) => {
        const payDay = addDays(plan.dueDate, p.dayAfterDue);
        const when = payDay <= addDays(day, 2) ? addDays(day, 3) : payDay;
        const last = index === plan.payer.payments.length - 1;
        paymentsOn.set(when, [
          ...(paymentsOn.get(when) ?? []),
          { plan, id, shareBp: p.shareBp, extraMinor: last ? plan.payer.extraMinor : 0 },
        ]);
      });
    }

    for (const { id, plan } of sentOn.get(day) ?? []) {
      const [current] = await tx.select({ state: invoices.state }).from(invoices).where(eq(invoices.id, id));
      if (current?.state !== INVOICE_STATE.awaitingCreditDecision || plan.fate === 'awaiting') continue;
      const choice =
        plan.fate === 'rejected'
          ? ({
              decision: 'rejected',
              reason: 'Mottagarens kreditvärdighet räcker inte för finansiering.',
            } as const)
          : ({ decision: 'approved' } as const);
      await decideCredit(db, who, id, choice, clock('08:00:00'), '127.0.0.1');
    }

    const due = paymentsOn.get(day) ?? [];
    if (due.length > 0) {
      const found = await tx
        .select({ id: invoices.id, ocr: invoices.ocr, toPay: invoices.toPayMinor, state: invoices.state })
        .from(invoices)
        .where(
          inArray(
            invoices.id,
            due.map((d) => d.id),
          ),
        );
      const byId = new Map(found.map((f) => [f.id, f]));
      const payments = due.flatMap((d) => {
        const inv = byId.get(d.id);
        if (!inv?.ocr || !isUnpaidState(inv.state)) return [];
        const amount = Math.round((inv.toPay * d.shareBp) / 10_000) + d.extraMinor;
        return amount > 0 ? [{ reference: inv.ocr, amountMinor: amount, name: payerName(d.plan) }] : [];
      });
      if (payments.length > 0) {
        fileNo++;
        // Now and then a payer gets the reference wrong: the payment matches no invoice and waits for
        // an operator (`npm run backoffice -- unmatched`).
        if (fileNo % 40 === 0)
          payments.push({
            reference: String(7_000_000_000 + fileNo * 97),
            amountMinor: 125_000 + fileNo * 100,
            name: 'Okänd betalare',
          });
        const bytes = incomingPaymentsFile({
          paymentDate: day,
          deposits: [{ bankgiro: s.bankgiro, payments }],
          firstSerial: fileNo * 1000,
          firstDeposit: fileNo,
        });
        await importBgmaxFile(db, bytes, {
          filename: `bgmax-${day}.txt`,
          operatorId: who.operatorId,
          now: clock('11:00:00'),
        });
      }
    }

    await s.alsoEachDay?.(day, clock);

    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (weekday === 2 || weekday === 5)
      await runPayout(db, { payoutDate: day, now: clock('13:00:00'), operatorId: who.operatorId });
  }
  // Dana has read our notices of the simulated months; the demo's unread ones are written after this.
  await tx.update(messages).set({ read: true }).where(eq(messages.issuerId, s.issuerId));
}

function payerName(plan: Plan): string {
  return `Betalare ${plan.invoiceNumber.slice(-3)}`;
}

/** Registers a planned invoice as the customer would: through `writeInvoice`, then the registered event. */
async function registerPlanned(
  tx: Tx,
  issuerId: string,
  userId: string,
  plan: Plan,
  when: Date,
): Promise<string> {
  const parsed: ParsedInvoiceBody = {
    recipientID: plan.recipientId,
    invoiceNumber: plan.invoiceNumber,
    service: plan.service,
    currency: 'SEK',
    invoiceDate: plan.invoiceDate,
    dueDate: plan.dueDate,
    orderReference: plan.orderReference,
    issuerContact: 'Dana Demosson',
    recipientContact: '',
    rows: plan.rows,
    rotRut: { type: 'none' as const, personalNumber: '', propertyDesignation: '', housingCoopNumber: '' },
    attachmentIDs: [],
    invoiceFileID: null,
    duplicatedFromID: null,
  };
  const id = await writeInvoice(tx, issuerId, parsed, { existingId: null, now: when });
  await tx
    .insert(invoiceEvents)
    .values({ invoiceId: id, issuerId, event: INVOICE_EVENT.registered, userId, at: when });
  return id;
}
