import type { InvoiceEvent, InvoiceState, ServiceType, UNITS } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { luhnCheckDigit } from '@portal/domain/luhn';
import { computeInvoice, nextOcrReference, todayIn } from '../../services/invoice-math';
import type { Tx } from '../client';
import { articles, companies, invoiceEvents, invoiceRows, invoices, recipients } from '../schema';

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
 * invoices over the last 14 months in every state with their timelines, plus the embedded company
 * register for company search. The states after sending are set directly here; the money-flow issue
 * replaces that with the back office's own code.
 */
export async function seedDemoBusiness(tx: Tx, issuerId: string, userId: string, now: Date): Promise<void> {
  const rnd = prng(20261122);
  const today = todayIn(now);

  const companyRows = Array.from({ length: 60 }, (_, i) => {
    const [city, zipcode] = CITIES[i % CITIES.length] as [string, string];
    const name = `${FIRST[i % FIRST.length]}${SECOND[(i * 7) % SECOND.length]} ${i % 5 === 0 ? 'HB' : 'AB'}`;
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
    phone: `08-${String(100_000 + i * 7919).slice(0, 3)} ${String(10 + i).padStart(2, '0')} ${String(30 + i).padStart(2, '0')}`,
    organizationNumber: c.organizationNumber,
    vat: c.vat,
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
  for (let n = 0; n < count; n++) {
    const ageDays = Math.floor(((count - n) / count) * 425) + rnd.int(0, 3);
    const invoiceDate = addDays(today, -ageDays);
    const terms = rnd.pick([10, 20, 30, 30, 45]);
    const due = addDays(invoiceDate, terms);
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
    const parsed = {
      recipientID: (rnd.pick(createdRecipients) as { id: string }).id,
      invoiceNumber: String(10_001 + n),
      service,
      currency: 'SEK',
      invoiceDate,
      dueDate: due,
      orderReference: rnd.next() < 0.3 ? `PO-${rnd.int(1000, 9999)}` : '',
      issuerContact: 'Dana Demosson',
      recipientContact: '',
      rows,
      rotRut: { type: 'none' as const, personalNumber: '', propertyDesignation: '', housingCoopNumber: '' },
      attachmentIDs: [],
      invoiceFileID: null,
      duplicatedFromID: null,
    };
    const totals = computeInvoice(parsed, 'SE');
    const financed = service !== 'invoicingService';
    const plan = lifeOf(ageDays, due < today, financed, rnd.next());
    const created = new Date(`${invoiceDate}T08:00:00Z`);
    const ocr = plan.sent ? await nextOcrReference(tx, issuerId) : null;
    const remaining =
      plan.state === 4 ? 0 : plan.state === 3 ? Math.round(totals.toPayMinor * 0.4) : totals.toPayMinor;
    const [inv] = await tx
      .insert(invoices)
      .values({
        issuerId,
        recipientId: parsed.recipientID,
        invoiceNumber: parsed.invoiceNumber,
        service,
        state: plan.state,
        decision: plan.decision,
        currency: 'SEK',
        invoiceDate,
        dueDate: due,
        orderReference: parsed.orderReference,
        issuerContact: parsed.issuerContact,
        netMinor: totals.netMinor,
        vatMinor: totals.vatMinor,
        grossMinor: totals.grossMinor,
        deductionMinor: totals.deductionMinor,
        toPayMinor: totals.toPayMinor,
        remainingMinor: remaining,
        rotRut: parsed.rotRut,
        vatLines: totals.vatLines,
        createdAt: created,
        updatedAt: created,
        sentAt: plan.sent ? created : null,
        ocr,
      })
      .returning({ id: invoices.id });
    if (!inv) throw new Error('seed: invoice not created');
    await tx.insert(invoiceRows).values(
      rows.map((r, position) => ({
        ...r,
        invoiceId: inv.id,
        position,
        netMinor: totals.rowNetMinor[position] ?? 0,
      })),
    );
    await tx.insert(invoiceEvents).values(
      plan.events.map(([event, dayOffset]) => ({
        invoiceId: inv.id,
        issuerId,
        event,
        userId: event === 1 || event === 15 ? userId : null,
        at: new Date(created.getTime() + dayOffset * 86_400_000),
        details: event === 2 ? { reason: 'Mottagarens kreditvärdighet räcker inte för finansiering.' } : null,
      })),
    );
  }
}

interface Life {
  state: InvoiceState;
  decision: 'approved' | 'rejected' | null;
  sent: boolean;
  events: [InvoiceEvent, number][];
}

/** The state an invoice of this age has reached, with its timeline (docs/INVOICES.md). */
function lifeOf(ageDays: number, pastDue: boolean, financed: boolean, roll: number): Life {
  const sentEvents: [InvoiceEvent, number][] = financed
    ? [
        [1, 0],
        [15, 0],
        [17, 0],
      ]
    : [
        [1, 0],
        [15, 0],
        [16, 0],
      ];
  if (ageDays <= 6 && roll < 0.5) return { state: 1, decision: null, sent: false, events: [[1, 0]] };
  if (ageDays <= 6) return { state: financed ? 9 : 6, decision: null, sent: true, events: sentEvents };
  const approved: [InvoiceEvent, number][] = financed
    ? [...sentEvents, [3, 1], [5, 2]]
    : [...sentEvents, [24, 1]];
  if (roll < 0.03)
    return {
      state: 11,
      decision: null,
      sent: false,
      events: [
        [1, 0],
        [20, 1],
      ],
    };
  if (financed && roll < 0.07)
    return { state: 1, decision: 'rejected', sent: true, events: [...sentEvents, [2, 1]] };
  if (!pastDue) return { state: 2, decision: financed ? 'approved' : null, sent: true, events: approved };
  if (ageDays < 60 && roll < 0.45)
    return {
      state: 2,
      decision: financed ? 'approved' : null,
      sent: true,
      events: [...approved, [25, ageDays - 2], [8, ageDays - 1]],
    };
  if (roll < 0.55)
    return { state: 3, decision: financed ? 'approved' : null, sent: true, events: [...approved, [7, 20]] };
  if (financed && roll < 0.6)
    return {
      state: 5,
      decision: 'approved',
      sent: true,
      events: [...approved, [25, 35], [8, 40], [9, 50], [22, 90]],
    };
  if (roll < 0.62)
    return {
      state: 8,
      decision: 'approved',
      sent: true,
      events: [...approved, [25, 35], [10, 60], [26, 120]],
    };
  return {
    state: 4,
    decision: financed ? 'approved' : null,
    sent: true,
    events: [...approved, [6, 25], [11, 26]],
  };
}
