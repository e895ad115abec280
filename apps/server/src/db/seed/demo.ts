import { ABILITIES, type Ability } from '@portal/contracts';
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '../../lib/passwords';
import { todayIn } from '../../lib/today';
import { seal } from '../../lib/tokens';
import { storeDemoVerifiedAccount } from '../../modules/bank-verification/bank-verification.service';
import { databaseFileStore, type FileStore } from '../../services/file-store';
import { noticeColumns } from '../../services/notices';
import type { Db } from '../client';
import {
  groups,
  invoices,
  issuerFees,
  issuers,
  messages,
  operators,
  recipients,
  userAbilities,
  users,
} from '../schema';
import { demoOperatorOf, seedDemoBusiness } from './demo-business';
import {
  DEMO_BANKGIROS,
  DEMO_BYGG_ISSUER,
  DEMO_GROUP,
  DEMO_OPERATOR,
  DEMO_PASSWORD,
  DEMO_TOTP_SECRET,
} from './demo-constants';
import { demoDebt } from './demo-debt';
import { demoDeductionStep } from './demo-deduction';
import { type DemoSigning, demoPlans } from './demo-plans';

export {
  DEMO_BANKGIROS,
  DEMO_GROUP,
  DEMO_OPERATOR,
  DEMO_PASSWORD,
  DEMO_TOTP_SECRET,
  DEMO_USERS,
} from './demo-constants';

/**
 * The demo issuers' prices (docs/MONEY.md "Fees"): per service and currency, a percentage in basis
 * points and a fixed fee per invoice in minor units.
 */
export const DEMO_FEES = [
  { service: 'factoring', currency: 'SEK', percentBasisPoints: 150, fixedMinor: 2_500 },
  { service: 'invoiceLoans', currency: 'SEK', percentBasisPoints: 200, fixedMinor: 2_500 },
  { service: 'nonRecourseFactoring', currency: 'SEK', percentBasisPoints: 275, fixedMinor: 2_500 },
  { service: 'invoicingService', currency: 'SEK', percentBasisPoints: 50, fixedMinor: 1_000 },
  { service: 'factoring', currency: 'EUR', percentBasisPoints: 150, fixedMinor: 250 },
  { service: 'invoicingService', currency: 'EUR', percentBasisPoints: 50, fixedMinor: 100 },
  // Installment plans (issue #14): the payout of a plan's financed amount less 2 %.
  { service: 'loans', currency: 'SEK', percentBasisPoints: 200, fixedMinor: 0 },
] as const;

/** What the running app lends the seed (`npm start`): its file store and its e-signing provider. */
export interface DemoSeedOptions {
  /** Where the signed agreements go; the database's own store by default. */
  files?: FileStore;
  /**
   * The app's e-signing provider: the demo's plan waiting for its signee is sent there, so its link
   * leads to the sandbox the app runs. Without it every plan is signed on a sandbox of the seed's own.
   */
  signing?: DemoSigning;
}

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="56" viewBox="0 0 220 56"><rect width="56" height="56" rx="12" fill="#0b5f7a"/><path d="M14 42 28 12l14 30h-7l-7-16-7 16z" fill="#fff"/><text x="68" y="36" font-family="Arial, sans-serif" font-size="24" font-weight="700" fill="#0b3c4d">Acme Finans</text></svg>`;
const BACKGROUND_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b3c4d"/><stop offset="1" stop-color="#1d8a99"/></linearGradient></defs><rect width="1600" height="900" fill="url(#g)"/><circle cx="1300" cy="150" r="260" fill="#ffffff" opacity="0.06"/><circle cx="200" cy="780" r="340" fill="#ffffff" opacity="0.05"/></svg>`;
const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

const ALL: Ability[] = [...ABILITIES];

/**
 * Writes the demo data of the README in one transaction. Does nothing and returns false when the
 * demo user already exists, so it is safe to run at every start of the embedded server.
 */
export async function seedDemo(
  db: Db,
  secretKey: Buffer,
  now = new Date(),
  options: DemoSeedOptions = {},
): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'demo')).limit(1);
  if (existing) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const day = 86_400_000;
  await db.transaction(async (tx) => {
    await tx.insert(groups).values({
      id: DEMO_GROUP,
      name: 'Acme Finans',
      logo: svgDataUrl(LOGO_SVG),
      background: svgDataUrl(BACKGROUND_SVG),
    });
    const [bygg, unverified, other, indebted] = await tx
      .insert(issuers)
      .values([
        DEMO_BYGG_ISSUER,
        {
          name: 'Nystart Måleri AB',
          email: 'info@nystartmaleri.se',
          organizationNo: '559123-4561',
          vat: 'SE559123456101',
          telephone: '031-98 76 54',
          address1: 'Färgargatan 3',
          city: 'Göteborg',
          zipcode: '411 05',
          country: 'SE',
          bankAccountVerified: false,
          collectionBankgiro: DEMO_BANKGIROS.unverified,
        },
        {
          name: 'Annan Firma Oy',
          email: 'talous@annanfirma.fi',
          organizationNo: '0737546-2',
          vat: 'FI07375462',
          telephone: '+358 9 123 4567',
          address1: 'Mannerheimintie 5',
          city: 'Helsinki',
          zipcode: '00100',
          country: 'FI',
          bankAccountVerified: true,
          collectionBankgiro: DEMO_BANKGIROS.other,
        },
        // Issue #16: the issuer whose debt we claimed and it paid (demo-debt.ts).
        {
          name: 'Sjöberg Snickeri AB',
          email: 'ekonomi@sjobergsnickeri.se',
          organizationNo: '559234-5671',
          vat: 'SE559234567101',
          telephone: '021-45 67 89',
          address1: 'Hyvelgatan 4',
          city: 'Västerås',
          zipcode: '722 12',
          country: 'SE',
          bankAccountVerified: true,
          collectionBankgiro: DEMO_BANKGIROS.debt,
        },
      ])
      .returning({ id: issuers.id });
    if (!bygg || !unverified || !other || !indebted) throw new Error('seed: issuers not created');

    const base = {
      passwordHash,
      lastPasswordChange: new Date(now.getTime() - 30 * day),
      groupId: DEMO_GROUP,
      language: null,
    };
    const created = await tx
      .insert(users)
      .values([
        {
          ...base,
          issuerId: bygg.id,
          username: 'demo',
          firstName: 'Dana',
          lastName: 'Demosson',
          email: 'dana@demobygg.se',
          fortnoxActive: false,
        },
        {
          ...base,
          issuerId: bygg.id,
          username: 'demo-2fa',
          firstName: 'Tove',
          lastName: 'Tvåsteg',
          email: 'tove@demobygg.se',
          totpSecret: seal(secretKey, DEMO_TOTP_SECRET),
        },
        {
          ...base,
          issuerId: bygg.id,
          username: 'demo-new',
          firstName: 'Nils',
          lastName: 'Nyberg',
          email: 'nils@demobygg.se',
          lastPasswordChange: null,
          force2fa: true,
        },
        {
          ...base,
          issuerId: bygg.id,
          username: 'demo-limited',
          firstName: 'Lina',
          lastName: 'Lind',
          email: 'lina@demobygg.se',
        },
        {
          ...base,
          issuerId: unverified.id,
          username: 'demo-unverified',
          firstName: 'Ulf',
          lastName: 'Ulander',
          email: 'ulf@nystartmaleri.se',
        },
        {
          ...base,
          issuerId: other.id,
          groupId: null,
          language: 'fi-FI' as const,
          username: 'demo-other',
          firstName: 'Olli',
          lastName: 'Ojala',
          email: 'olli@annanfirma.fi',
        },
        {
          ...base,
          issuerId: indebted.id,
          username: 'demo-debt',
          firstName: 'Sara',
          lastName: 'Sjöberg',
          email: 'sara@sjobergsnickeri.se',
        },
      ])
      .returning({ id: users.id, username: users.username });
    const idOf = (name: string) => {
      const u = created.find((c) => c.username === name);
      if (!u) throw new Error(`seed: ${name} not created`);
      return u.id;
    };
    const grants: { userId: string; ability: Ability }[] = [];
    for (const name of ['demo', 'demo-2fa', 'demo-new', 'demo-unverified', 'demo-other', 'demo-debt'])
      for (const ability of ALL) grants.push({ userId: idOf(name), ability });
    for (const ability of ['limited_invoices', 'limited_send_invoice'] as const)
      grants.push({ userId: idOf('demo-limited'), ability });
    await tx.insert(userAbilities).values(grants);
    await tx
      .insert(issuerFees)
      .values(
        [bygg.id, unverified.id, other.id, indebted.id].flatMap((issuerId) =>
          DEMO_FEES.map((f) => ({ issuerId, ...f })),
        ),
      );
    await tx.insert(operators).values({
      username: DEMO_OPERATOR,
      name: 'Olle Operatör',
      email: 'olle@acmefinans.se',
      passwordHash,
    });

    // The verified demo issuers verified their accounts (the sandbox's) before the 14 simulated months,
    // so their payouts go there; Nystart Måleri AB has none, and its payouts are held (issue #13).
    const verifiedAt = new Date(now.getTime() - 450 * day);
    await storeDemoVerifiedAccount(tx, {
      issuerId: bygg.id,
      userId: idOf('demo'),
      bankId: 'se-norrbanken',
      bankName: 'Norrbanken',
      identifier: { kind: 'se-bban', clearing: '6123', account: '123456789' },
      holderName: 'Demo Bygg AB',
      currency: 'SEK',
      at: verifiedAt,
    });
    await storeDemoVerifiedAccount(tx, {
      issuerId: other.id,
      userId: idOf('demo-other'),
      bankId: 'fi-pohjolan-pankki',
      bankName: 'Pohjolan Pankki',
      identifier: { kind: 'iban', iban: 'FI2112345600000785', bic: 'POHJFIHH' },
      holderName: 'Annan Firma Oy',
      currency: 'EUR',
      at: verifiedAt,
    });
    await storeDemoVerifiedAccount(tx, {
      issuerId: indebted.id,
      userId: idOf('demo-debt'),
      bankId: 'se-norrbanken',
      bankName: 'Norrbanken',
      identifier: { kind: 'se-bban', clearing: '6123', account: '987654321' },
      holderName: 'Sjöberg Snickeri AB',
      currency: 'SEK',
      at: verifiedAt,
    });
    const seedOperator = await demoOperatorOf(tx);
    const debt = await demoDebt(tx, {
      issuerId: indebted.id,
      userId: idOf('demo-debt'),
      operator: seedOperator,
      today: todayIn(now),
    });
    const plans = await demoPlans(tx, {
      issuerId: bygg.id,
      userId: idOf('demo'),
      operator: seedOperator,
      bankgiro: DEMO_BANKGIROS.bygg,
      today: todayIn(now),
      files: options.files ?? databaseFileStore(tx),
      liveSigning: options.signing,
    });
    try {
      // Besides the plans' days, the one handled deduction (docs/MONEY.md "Deductions (TK21)").
      const deduction = demoDeductionStep({
        tx,
        issuerId: bygg.id,
        bankgiro: DEMO_BANKGIROS.bygg,
        operator: seedOperator,
        today: todayIn(now),
      });
      await seedDemoBusiness(tx, bygg.id, idOf('demo'), now, async (day, clock) => {
        await plans.step(day, clock);
        await debt(day, clock);
        await deduction(day, clock);
      });
    } finally {
      await plans.close();
    }
    const invoiceOf = async (invoiceNumber: string) => {
      const [found] = await tx
        .select({ id: invoices.id, recipient: recipients.name })
        .from(invoices)
        .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
        .where(and(eq(invoices.issuerId, bygg.id), eq(invoices.invoiceNumber, invoiceNumber)));
      if (!found) throw new Error(`seed: invoice ${invoiceNumber} not created`);
      return found;
    };
    const inv10042 = await invoiceOf('10042');
    const inv10037 = await invoiceOf('10037');

    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * day);
    // Our notices are stored as codes and worded in the reader's language (services/notices.ts).
    await tx.insert(messages).values([
      {
        issuerId: bygg.id,
        ...noticeColumns({ code: 'welcome', params: {} }, 'sv-SE'),
        date: at(20),
        read: true,
      },
      {
        issuerId: bygg.id,
        ...noticeColumns(
          {
            code: 'creditDecision.approved',
            params: { invoiceNumber: '10042', recipient: inv10042.recipient, reason: '' },
          },
          'sv-SE',
        ),
        invoiceId: inv10042.id,
        invoiceNumber: '10042',
        date: at(3),
        read: false,
      },
      {
        issuerId: bygg.id,
        ...noticeColumns(
          { code: 'reminderSent', params: { invoiceNumber: '10037', recipient: inv10037.recipient } },
          'sv-SE',
        ),
        invoiceId: inv10037.id,
        invoiceNumber: '10037',
        date: at(1),
        read: false,
      },
      {
        issuerId: bygg.id,
        messageType: '4',
        authorUserId: idOf('demo'),
        author: 'Dana Demosson',
        invoiceId: inv10037.id,
        invoiceNumber: '10037',
        title: 'Re: Faktura 10037',
        text: 'Tack, kunden har lovat att betala på fredag.',
        date: at(0.5),
        // Written by the user: read for its author (the stored flag is what the others see).
        read: false,
      },
      {
        issuerId: bygg.id,
        messageType: '1',
        author: 'Kundtjänst',
        title: 'Nya villkor från 1 januari',
        text: 'Våra allmänna villkor uppdateras. Inga ändringar i dina avgifter.',
        date: at(10),
        read: false,
      },
      {
        issuerId: other.id,
        ...noticeColumns({ code: 'welcome', params: {} }, 'fi-FI'),
        date: at(5),
        read: false,
      },
    ]);
  });
  return true;
}
