/**
 * The figures of an invoice event the customer's timeline shows (docs/MONEY.md "Timeline event
 * details"). Only these keys leave the server: internal ids (operatorId, paymentId, …) stay inside.
 */
const TIMELINE_KEYS = [
  'settlementNumber',
  'grossMinor',
  'feeMinor',
  'netMinor',
  'amountMinor',
  'paymentDate',
  'remainingMinor',
  'forwarded',
  'overpaidMinor',
  'dueDate',
  'reminderFeeMinor',
  'interestMinor',
  'fromDate',
  'toDate',
  'rateBasisPoints',
  'chargedBackMinor',
  // The payer's reference of a BGMAX deduction (events 12 and 29): the customer's own OCR or credit note.
  'reference',
] as const;

export function timelineDetails(
  details: Record<string, string | number> | null | undefined,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (!details) return out;
  for (const key of TIMELINE_KEYS) {
    const value = details[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = value;
  }
  return out;
}
