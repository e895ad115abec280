import { MAX_INVOICE_TOTAL_MINOR } from '@portal/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/render';
import { type ChartBar, ColumnChart } from './column-chart';

/** Intl writes a no-break or narrow no-break space in Swedish and Finnish amounts: compare as spaces. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
/** The whole text, any kind of space where it has a space. */
const spaced = (text: string) =>
  new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s')}$`);

const BARS: ChartBar[] = [
  { key: '2026-09', label: 'September 2026', tick: 'Sep', grossMinor: 250_000, count: 2 },
  { key: '2026-10', label: 'October 2026', tick: 'Oct', grossMinor: 1_000_001, count: 3 },
  { key: '2026-11', label: 'November 2026', tick: 'Nov', grossMinor: 67, count: 1 },
];

async function renderChart(bars: ChartBar[], currency = 'SEK', title = 'Sales') {
  const user = userEvent.setup();
  const view = renderWithProviders(<ColumnChart title={title} bars={bars} currency={currency} />);
  return { user, ...view };
}

const valueTicks = (container: HTMLElement) =>
  [...container.querySelectorAll('.column-chart__axis--value text')].map((t) => plain(t.textContent));
const periodTicks = (container: HTMLElement) =>
  [...container.querySelectorAll('.column-chart__axis--period text')].map((t) => plain(t.textContent));

/** The value axis of BARS: `zero`, then 2 000 to 12 000 by 2 000 as `tick` writes each (in thousands). */
const ticks = (zero: string, tick: (thousands: number) => string) => [
  zero,
  ...[2, 4, 6, 8, 10, 12].map(tick),
];

describe('the dashboard column chart', () => {
  it('in English: value axis, exact total, a named bar each, tooltip on hover and on focus', async () => {
    const { user, container } = await renderChart(BARS);
    // 2 500,00 + 10 000,01 + 0,67 = 12 500,68: summed in öre, nothing lost to floats.
    expect(screen.getByTestId('chart-total')).toHaveTextContent('Total SEK 12,500.68');
    expect(screen.getByRole('heading', { name: 'Sales' })).toBeInTheDocument();

    const chart = await screen.findByRole('group', { name: 'Sales' });
    expect(chart).toHaveAccessibleDescription(
      spaced(
        'Invoiced in total SEK 12,500.68, highest bar SEK 10,000.01. Move between the bars with the left and right arrow keys.',
      ),
    );
    expect(valueTicks(container)).toEqual(ticks('SEK 0', (n) => `SEK ${n}K`));
    expect(periodTicks(container)).toEqual(['Sep', 'Oct', 'Nov']);

    const bars = within(chart).getAllByRole('img');
    expect(bars.map((b) => plain(b.getAttribute('aria-label')))).toEqual([
      'September 2026: SEK 2,500.00, 2 invoices',
      'October 2026: SEK 10,000.01, 3 invoices',
      'November 2026: SEK 0.67, 1 invoice',
    ]);
    // The tallest bar reaches the top tick's height in proportion; a zero bar has none.
    const heights = container.querySelectorAll('.column-chart__bar');
    expect(Number(heights[1]?.getAttribute('height'))).toBeGreaterThan(
      Number(heights[0]?.getAttribute('height')) * 3.9,
    );

    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.hover(bars[1] as HTMLElement);
    expect(plain(screen.getByRole('tooltip').textContent)).toBe('October 2026SEK 10,000.013 invoices');
    await user.unhover(bars[1] as HTMLElement);
    expect(screen.queryByRole('tooltip')).toBeNull();

    // One tab stop; the arrow keys, Home and End move between the bars, the tooltip follows the focus.
    await user.tab();
    expect(bars[0]).toHaveFocus();
    expect(plain(screen.getByRole('tooltip').textContent)).toBe('September 2026SEK 2,500.002 invoices');
    await user.keyboard('{ArrowRight}');
    expect(bars[1]).toHaveFocus();
    expect(screen.getByRole('tooltip')).toHaveTextContent('October 2026');
    await user.keyboard('{End}');
    expect(bars[2]).toHaveFocus();
    expect(plain(screen.getByRole('tooltip').textContent)).toBe('November 2026SEK 0.671 invoice');
    await user.keyboard('{ArrowRight}');
    expect(bars[2]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(bars[0]).toHaveFocus();
    expect(bars.map((b) => b.getAttribute('tabindex'))).toEqual(['0', '-1', '-1']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.tab();
    expect(document.body).toHaveFocus();
  });

  it('in Swedish: ticks, total, names and tooltip in Swedish formats', async () => {
    await i18next.changeLanguage('sv-SE');
    const { user, container } = await renderChart(BARS, 'SEK', 'Försäljning');
    expect(plain(screen.getByTestId('chart-total').textContent)).toBe('Totalt 12 500,68 kr');
    const chart = await screen.findByRole('group', { name: 'Försäljning' });
    expect(valueTicks(container)).toEqual(ticks('0 kr', (n) => `${n} tn kr`));
    const bars = within(chart).getAllByRole('img');
    expect(bars.map((b) => plain(b.getAttribute('aria-label')))).toEqual([
      'September 2026: 2 500,00 kr, 2 fakturor',
      'October 2026: 10 000,01 kr, 3 fakturor',
      'November 2026: 0,67 kr, 1 faktura',
    ]);
    await user.hover(bars[0] as HTMLElement);
    expect(plain(screen.getByRole('tooltip').textContent)).toBe('September 20262 500,00 kr2 fakturor');
  });

  it('in Finnish with euros: ticks, total and names', async () => {
    await i18next.changeLanguage('fi-FI');
    const { user, container } = await renderChart(BARS, 'EUR', 'Myynti');
    expect(plain(screen.getByTestId('chart-total').textContent)).toBe('Yhteensä 12 500,68 €');
    const chart = await screen.findByRole('group', { name: 'Myynti' });
    expect(valueTicks(container)).toEqual(ticks('0 €', (n) => `${n} t. €`));
    const bars = within(chart).getAllByRole('img');
    expect(plain(bars[2]?.getAttribute('aria-label'))).toBe('November 2026: 0,67 €, 1 lasku');
    await user.tab();
    expect(plain(screen.getByRole('tooltip').textContent)).toBe('September 20262 500,00 €2 laskua');
  });

  it('keeps amounts up to the bounds exact in the total and short on the axis', async () => {
    // Twelve months of a hundred invoices each at the largest total an invoice may have.
    const months: ChartBar[] = Array.from({ length: 12 }, (_, i) => ({
      key: `2026-${String(i + 1).padStart(2, '0')}`,
      label: `Month ${i + 1}`,
      tick: `M${i + 1}`,
      grossMinor: 100 * MAX_INVOICE_TOTAL_MINOR - (i === 0 ? 1 : 0),
      count: 100,
    }));
    const { container } = await renderChart(months);
    // 12 × 100 × 100 000 000,00 kr less one öre.
    expect(screen.getByTestId('chart-total')).toHaveTextContent('Total SEK 119,999,999,999.99');
    await screen.findByRole('group', { name: 'Sales' });
    const ticks = valueTicks(container);
    expect(ticks.at(-1)).toBe('SEK 10B');
    // The value axis is at least as wide as its longest label at 7.5 px a character (12 px labels).
    const plot = container.querySelector('.column-chart__svg > g') as SVGGElement;
    const left = Number(/translate\((\d+(?:\.\d+)?)/.exec(plot.getAttribute('transform') ?? '')?.[1]);
    expect(left).toBeGreaterThanOrEqual(Math.max(...ticks.map((t) => t.length)) * 7.5);
    expect(within(container).getAllByRole('img')[0]).toHaveAccessibleName(
      spaced('Month 1: SEK 9,999,999,999.99, 100 invoices'),
    );
  });

  it('shows an empty state, and no plot, when nothing was invoiced in the period', async () => {
    const empty = BARS.map((b) => ({ ...b, grossMinor: 0, count: 0 }));
    await renderChart(empty);
    expect(screen.getByTestId('chart-empty')).toHaveTextContent('No invoices in this period.');
    expect(screen.getByTestId('chart-total')).toHaveTextContent('Total SEK 0.00');
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.queryAllByRole('img')).toHaveLength(0);
  });
});
