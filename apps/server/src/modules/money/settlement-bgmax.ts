import { createBgmaxSettlementFile, writeBgmax } from '@portal/domain/bgmax';
import type { Currency } from '@portal/domain/money';
import { ApiError } from '../../lib/errors';

/**
 * A settlement as a BGMAX file (one deposit): each row with a positive net is a TK20 payment, each
 * negative one (a charge back) a TK21 deduction, with the invoice's OCR reference; rows of zero move
 * no money and are left out. The deposit (TK15) is then exactly the settlement's total payout; a
 * settlement whose total is negative (the issuer owes us) is no deposit and cannot be written, nor one
 * of an issuer without a bankgiro (409 `settlements.no_bankgiro`).
 */
export function settlementBgmax(
  settlement: { number: number; payoutDate: string; currency: string; day: string; totalPayoutMinor: number },
  bankgiro: string | null,
  lines: { reference: string; netMinor: number }[],
): Uint8Array {
  if (settlement.totalPayoutMinor < 0) throw new ApiError('settlements.negative_total');
  // The deposit is to the issuer's bankgiro; without one there is no BGMAX file to write (a made-up
  // number would book the payout on a bankgiro that is not the customer's).
  const payeeBankgiro = (bankgiro ?? '').replace(/\D/g, '');
  if (payeeBankgiro === '') throw new ApiError('settlements.no_bankgiro');
  const file = createBgmaxSettlementFile({
    payeeBankgiro,
    paymentDate: settlement.payoutDate,
    currency: settlement.currency as Currency,
    depositSerialNumber: settlement.number % 100_000,
    writtenAt: `${settlement.day}T00:00:00.000000`,
    // The payments first, then the charge backs; the deductions' reference code is 2 for digits.
    payments: [
      ...lines
        .filter((l) => l.netMinor > 0)
        .map((l) => ({ reference: l.reference, amountMinor: l.netMinor })),
      ...lines
        .filter((l) => l.netMinor < 0)
        .map((l) => ({
          reference: l.reference,
          amountMinor: -l.netMinor,
          referenceCode: /^[0-9]+$/.test(l.reference) ? (2 as const) : (3 as const),
          deduction: true,
        })),
    ],
  });
  return writeBgmax(file);
}
