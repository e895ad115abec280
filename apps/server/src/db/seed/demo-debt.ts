import { documentLanguageForCountry, INVOICE_EVENT, type ParsedInvoiceBody } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { OUR_BANKGIRO } from '@portal/domain/money-flow';
import { and, eq } from 'drizzle-orm';
import type { OperatorContext } from '../../context';
import {
  decideCredit,
  sendInvoicesInTransaction,
  writeInvoice,
} from '../../modules/invoices/invoices.service';
import { importBgmaxFile, incomingPaymentsFile } from '../../modules/money/money.service';
import { databaseFileStore } from '../../services/file-store';
import type { Db, Tx } from '../client';
import { invoiceEvents, issuerDebtClaims, recipients } from '../schema';
import type { DemoDayStep } from './demo-business';

/**
 * The demo's collected debt (issue #16, docs/MONEY.md "Debt claims"): Sjöberg Snickeri AB (user
 * `demo-debt`) sends two factoring invoices to one customer, about half a year ago. We buy them and
 * pay them out; the customer never pays, so both are charged back 60 days after their due date. The
 * company sends nothing more, so no payout sets the charge backs off; 30 days later the daily job
 * claims the debt (a message with the OCR reference and due date), a week after the due date a
 * reminder goes out, and the company pays the claim to our bankgiro in two BGMAX payments. Everything
 * but the invoices and the two payments is done by the real daily job and payout runs of `simulate`.
 */
export async function demoDebt(
  tx: Tx,
  s: { issuerId: string; userId: string; operator: OperatorContext; today: string },
): Promise<DemoDayStep> {
  const db = tx as unknown as Db;
  const [recipient] = await tx
    .insert(recipients)
    .values({
      issuerId: s.issuerId,
      name: 'Husfabriken i Mälardalen AB',
      address: 'Verkstadsgatan 8',
      zipcode: '721 30',
      city: 'Västerås',
      country: 'SE',
      email: 'faktura@husfabriken.se',
      phone: '+4621123456',
      organizationNumber: '556677-8899',
      vat: 'SE556677889901',
      sni: '41200',
      documentLanguage: documentLanguageForCountry('SE'),
    })
    .returning({ id: recipients.id });
  if (!recipient) throw new Error('seed: no recipient for the debt');
  const sentOn = addDays(s.today, -190);
  const invoiceIds: string[] = [];
  let files = 0;

  const payClaim = async (day: string, clock: (utcTime: string) => Date, share: 'part' | 'rest') => {
    const [claim] = await tx
      .select()
      .from(issuerDebtClaims)
      .where(and(eq(issuerDebtClaims.issuerId, s.issuerId), eq(issuerDebtClaims.state, 'open')));
    if (!claim) throw new Error('seed: the daily job made no debt claim');
    const left = claim.amountMinor - claim.paidMinor;
    const amountMinor = share === 'part' ? Math.round(left / 200) * 100 : left;
    files++;
    const bytes = incomingPaymentsFile({
      paymentDate: day,
      deposits: [
        {
          bankgiro: OUR_BANKGIRO,
          payments: [{ reference: claim.ocr, amountMinor, name: 'Sjöberg Snickeri AB' }],
        },
      ],
      firstSerial: 990_000 + files,
      firstDeposit: 9_900 + files,
    });
    await importBgmaxFile(db, bytes, {
      filename: `bgmax-${day}-vara.txt`,
      operatorId: s.operator.operatorId,
      now: clock('11:30:00'),
    });
  };

  return async (day, clock) => {
    if (day === sentOn) {
      const at = clock('07:00:00');
      for (const [invoiceNumber, hours, priceMinor] of [
        ['2001', 10_000, 95_000],
        ['2002', 24_000, 65_000],
      ] as const) {
        const parsed: ParsedInvoiceBody = {
          recipientID: recipient.id,
          invoiceNumber,
          service: 'factoring',
          currency: 'SEK',
          invoiceDate: day,
          dueDate: addDays(day, 30),
          orderReference: 'Takstolar, etapp 2',
          issuerContact: 'Sara Sjöberg',
          recipientContact: '',
          rows: [
            {
              articleNumber: '',
              name: 'Snickeriarbete',
              description: '',
              quantityMilli: hours,
              unit: 'h',
              unitPriceMinor: priceMinor,
              vatBasisPoints: 2500,
              rotRut: false,
            },
          ],
          rotRut: { type: 'none', personalNumber: '', propertyDesignation: '', housingCoopNumber: '' },
          attachmentIDs: [],
          invoiceFileID: null,
          duplicatedFromID: null,
        };
        const id = await writeInvoice(tx, s.issuerId, parsed, { existingId: null, now: at });
        await tx.insert(invoiceEvents).values({
          invoiceId: id,
          issuerId: s.issuerId,
          event: INVOICE_EVENT.registered,
          userId: s.userId,
          at,
        });
        invoiceIds.push(id);
      }
      await sendInvoicesInTransaction(
        tx,
        { issuerId: s.issuerId, userId: s.userId },
        invoiceIds,
        clock('07:30:00'),
        databaseFileStore(db),
      );
    }
    if (day === addDays(sentOn, 1))
      for (const id of invoiceIds)
        await decideCredit(db, s.operator, id, { decision: 'approved' }, clock('08:30:00'), '127.0.0.1');
    // Charged back on day 90 (due + 60), claimed on day 120, due day 134, reminded day 141.
    if (day === addDays(sentOn, 143)) await payClaim(day, clock, 'part');
    if (day === addDays(sentOn, 150)) await payClaim(day, clock, 'rest');
  };
}
