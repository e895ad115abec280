import { formatAmount, formatMoney as formatMoneyIn, isCurrency } from '@portal/domain/money';
import { toLanguage } from './i18n';

/**
 * Minor units with their currency in the user's language, by `@portal/domain/money` (exact: Intl
 * only sees whole major units): 123450 SEK → "1 234,50 kr" in Swedish, "SEK 1,234.50" in English. A
 * currency the portal does not issue in is written as its code after the amount.
 */
export function formatMoney(minor: number, currency: string, language: string): string {
  const locale = toLanguage(language);
  return isCurrency(currency)
    ? formatMoneyIn(minor, currency, locale)
    : `${formatAmount(minor, locale)} ${currency}`;
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
