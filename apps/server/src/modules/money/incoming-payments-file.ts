import {
  type BgmaxFile,
  type BgmaxReferenceCode,
  type BgmaxSettlementPayment,
  bgmaxEndCounts,
  bgmaxSectionTotals,
  createBgmaxSettlementFile,
  writeBgmax,
} from '@portal/domain/bgmax';
import type { Currency } from '@portal/domain/money';

/** A TK22 (or, `negative`, a TK23) extra reference of an incoming payment. */
export interface IncomingExtraReference {
  reference: string;
  /** Öre; 0 when the payer did not split the payment over its references. */
  amountMinor: number;
  negative?: boolean;
  /** Defaults to 2 (a correct OCR reference). */
  referenceCode?: BgmaxReferenceCode;
}

/**
 * One TK20 payment, or with `deduction` a TK21 deduction (a credit the payer took off the deposit). Its
 * amount may be zero, as Bankgirot may deliver one (kept as information by the import).
 */
export interface IncomingPayment extends BgmaxSettlementPayment {
  extraReferences?: readonly IncomingExtraReference[];
}

/** The payments into one receiving bankgiro on one day: one deposit (TK05 … TK15) of the file. */
export interface IncomingDeposit {
  bankgiro: string;
  currency?: Currency;
  /** The deposit is Σ payments − Σ deductions, which must not be negative. */
  payments: readonly IncomingPayment[];
}

/**
 * A BGMAX file as Bankgirot would deliver our incoming payments of one day: one deposit per receiving
 * bankgiro, BGC serial numbers running on across the file from `firstSerial` and deposit serial
 * numbers from `firstDeposit`, so that two files of the same day never reuse a payment's identity.
 * Payments may be TK21 deductions and carry TK22/TK23 extra references. The demo seed, the tests and
 * the benchmark use it to make the recipients pay; the import reads it with the same reader as a real
 * file.
 */
export function incomingPaymentsFile(input: {
  paymentDate: string;
  deposits: readonly IncomingDeposit[];
  /** TK01 timestamp; defaults to 06:00 of the payment date. */
  writtenAt?: string;
  firstSerial?: number;
  firstDeposit?: number;
}): Uint8Array {
  let serial = input.firstSerial ?? 1;
  const sections = input.deposits
    .filter((d) => d.payments.length > 0)
    .map((deposit, index) => {
      const [section] = createBgmaxSettlementFile({
        payeeBankgiro: deposit.bankgiro,
        paymentDate: input.paymentDate,
        currency: deposit.currency ?? 'SEK',
        depositSerialNumber: (input.firstDeposit ?? 1) + index,
        // The settlement's builder takes no zero amount (a settlement leaves rows of zero out): such a
        // payment is built with 1 öre and given its zero below, and the deposit counted again.
        payments: deposit.payments.map((p) => (p.amountMinor === 0 ? { ...p, amountMinor: 1 } : p)),
      }).sections;
      if (!section) throw new Error('no section');
      section.payments.forEach((p, i) => {
        if (deposit.payments[i]?.amountMinor === 0) p.amountMinor = 0;
        p.bgcSerialNumber = String(serial++).padStart(12, '0');
        p.extraReferences = (deposit.payments[i]?.extraReferences ?? []).map((e) => ({
          sign: e.negative ? 'negative' : 'positive',
          reference: e.reference,
          amountMinor: e.amountMinor,
          referenceCode: e.referenceCode ?? 2,
        }));
      });
      section.deposit.amountMinor = Number(bgmaxSectionTotals(section.payments).amountMinor);
      return section;
    });
  const file: BgmaxFile = {
    header: {
      layoutName: 'BGMAX',
      version: '01',
      writtenAt: input.writtenAt ?? `${input.paymentDate}T06:00:00.000000`,
      testMark: 'T',
    },
    sections,
    end: bgmaxEndCounts(sections),
  };
  return writeBgmax(file);
}
