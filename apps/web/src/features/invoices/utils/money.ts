import type { Language } from '@portal/contracts';
import { CURRENCIES, type Currency, formatAmount, formatMoney } from '@portal/domain/money';

function isCurrency(code: string): code is Currency {
  return (CURRENCIES as readonly string[]).includes(code);
}

/**
 * Minor units with the currency in the user's language, exactly (domain money): 663826 SEK →
 * "6 638,26 kr" (sv-SE), "SEK 6,638.26" (en-US). A currency the portal does not issue in is written
 * after the amount.
 */
export function formatInvoiceMoney(minor: number, currency: string, language: Language): string {
  return isCurrency(currency)
    ? formatMoney(minor, currency, language)
    : `${formatAmount(minor, language)} ${currency}`;
}

export interface CurrencyTotal {
  currency: string;
  count: number;
  grossMinor: number;
}

/** Count and sum of `grossMinor` per currency, in currency order (integers only, never floats). */
export function totalsByCurrency(
  invoices: readonly { currency: string; grossMinor: number }[],
): CurrencyTotal[] {
  const byCurrency = new Map<string, CurrencyTotal>();
  for (const invoice of invoices) {
    const total = byCurrency.get(invoice.currency) ?? { currency: invoice.currency, count: 0, grossMinor: 0 };
    total.count += 1;
    total.grossMinor += invoice.grossMinor;
    byCurrency.set(invoice.currency, total);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
