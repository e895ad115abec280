import type { Language } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { formatBasisPoints, formatDate } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';

type Details = Record<string, string | number>;

/** The translation key and values of a money event's figures (docs/MONEY.md "Timeline event details"). */
export function eventDetailsText(
  event: number,
  details: Details,
  currency: string,
  language: Language,
): { key: string; values: Record<string, string> } | null {
  const num = (key: string) => (typeof details[key] === 'number' ? (details[key] as number) : null);
  const str = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : null);
  const money = (key: string) => {
    const minor = num(key);
    return minor === null ? null : formatMoney(minor, currency, language);
  };
  const date = (key: string) => {
    const value = str(key);
    return value === null ? null : formatDate(value, language);
  };
  const all = (key: string, values: Record<string, string | null>) =>
    Object.values(values).every((v) => v !== null) ? { key, values: values as Record<string, string> } : null;

  switch (event) {
    case 5:
    case 11:
      return all('invoices:eventDetails.settlement', {
        settlementNumber: num('settlementNumber') === null ? null : String(num('settlementNumber')),
        gross: money('grossMinor'),
        fee: money('feeMinor'),
        net: money('netMinor'),
      });
    case 6:
    case 7:
      return all(
        num('forwarded') === 1 ? 'invoices:eventDetails.paymentForwarded' : 'invoices:eventDetails.payment',
        {
          amount: money('amountMinor'),
          paymentDate: date('paymentDate'),
          remaining: money('remainingMinor'),
        },
      );
    case 21:
      return all('invoices:eventDetails.overpayment', {
        overpaid: money('overpaidMinor'),
        paymentDate: date('paymentDate'),
      });
    case 25:
      return all('invoices:eventDetails.overdue', { dueDate: date('dueDate') });
    case 8:
      return all('invoices:eventDetails.reminder', { reminderFee: money('reminderFeeMinor') });
    case 10:
      return all('invoices:eventDetails.collection', { remaining: money('remainingMinor') });
    case 14: {
      const rate = num('rateBasisPoints');
      return all('invoices:eventDetails.interest', {
        interest: money('interestMinor'),
        fromDate: date('fromDate'),
        toDate: date('toDate'),
        rate: rate === null ? null : formatBasisPoints(rate, language),
      });
    }
    case 22:
      return all('invoices:eventDetails.chargedBack', { chargedBack: money('chargedBackMinor') });
    // A BGMAX deduction an operator settled against this invoice (12) or charged to the issuer (29).
    case 12:
      return all('invoices:eventDetails.deductionSettled', {
        amount: money('amountMinor'),
        paymentDate: date('paymentDate'),
        reference: str('reference'),
        remaining: money('remainingMinor'),
      });
    case 29:
      return all('invoices:eventDetails.deductionCharged', {
        amount: money('amountMinor'),
        paymentDate: date('paymentDate'),
        reference: str('reference'),
      });
    default:
      return null;
  }
}

/** The figures of one timeline event in the user's language, or nothing for an event without them. */
export function EventDetails({
  event,
  details,
  currency,
  language,
}: {
  event: number;
  details: Details;
  currency: string;
  language: Language;
}) {
  const { t } = useTranslation();
  const text = eventDetailsText(event, details, currency, language);
  if (!text) return null;
  return <span className="timeline__details">{t(text.key, text.values)}</span>;
}
