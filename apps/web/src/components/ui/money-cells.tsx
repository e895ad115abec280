import { formatMoney } from '../../lib/money';

/**
 * Amounts of one currency side by side in a table row, each a right-aligned cell in the user's
 * language; `labels` name the cells for the card layout of a phone (data-label), in the same order.
 */
export function MoneyCells({
  amounts,
  currency,
  language,
  labels,
}: {
  /** Minor units. */
  amounts: readonly number[];
  currency: string;
  language: string;
  labels?: readonly string[];
}) {
  return amounts.map((minor, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the cells are fixed for the row, their place is their identity.
    <td key={index} className="data-table__number" data-label={labels?.[index]}>
      {formatMoney(minor, currency, language)}
    </td>
  ));
}
