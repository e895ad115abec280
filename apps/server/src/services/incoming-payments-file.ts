import {
  type BgmaxFile,
  type BgmaxSettlementPayment,
  bgmaxEndCounts,
  createBgmaxSettlementFile,
  writeBgmax,
} from '@portal/domain/bgmax';
import type { Currency } from '@portal/domain/money';

/** The payments into one receiving bankgiro on one day: one deposit (TK05 … TK15) of the file. */
export interface IncomingDeposit {
  bankgiro: string;
  currency?: Currency;
  payments: readonly BgmaxSettlementPayment[];
}

/**
 * A BGMAX file as Bankgirot would deliver our incoming payments of one day: one deposit per receiving
 * bankgiro, BGC serial numbers running on across the file from `firstSerial` and deposit serial
 * numbers from `firstDeposit`, so that two files of the same day never reuse a payment's identity.
 * The demo seed, the tests and the benchmark use it to make the recipients pay; the import reads it
 * with the same reader as a real file.
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
        payments: deposit.payments,
      }).sections;
      if (!section) throw new Error('no section');
      for (const p of section.payments) p.bgcSerialNumber = String(serial++).padStart(12, '0');
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
