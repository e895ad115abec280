import { CURRENCY_MINOR_DIGITS, toCurrency } from '@portal/domain/money';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { TooltipWithBounds, useTooltip } from '@visx/tooltip';
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toLanguage } from '../../../lib/i18n';
import { formatMoney } from '../../../lib/money';
import type { ChartBar } from './column-chart';

const HEIGHT = 220;
const MARGIN = { top: 12, right: 8, bottom: 28 };
/** Width used before the container is measured (and in tests, where nothing has a layout). */
const FALLBACK_WIDTH = 520;
/** Estimated width of one character of a 12 px axis label; generous, so a label never leaves the SVG. */
const CHAR_PX = 7.5;
const VALUE_TICKS = 4;

/**
 * An axis tick in the user's language, compact ("25 tn kr", "SEK 25K", "25 t. €"): a tick is a round
 * figure, so the exact formatting of `formatMoney` would only make the labels wide. Display only: the
 * figures themselves stay integer minor units.
 */
export function formatMoneyTick(minor: number, currency: string, language: string): string {
  const digits = CURRENCY_MINOR_DIGITS[toCurrency(currency)];
  return new Intl.NumberFormat(toLanguage(language), {
    style: 'currency',
    currency,
    notation: 'compact',
    maximumSignificantDigits: 3,
  }).format(minor / 10 ** digits);
}

/** The width of the element, followed as it resizes (the labels keep their size; the plot stretches). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (element.clientWidth > 0) setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The plot of a column chart, drawn with visx (scales, axes, bars, tooltip; about 21 kB compressed,
 * in the dashboard's chunk only). It is not split into a lazy chunk of its own: a chunk that imports
 * React but not React Router makes the bundler split the shared chunk the login page loads, which
 * then grows (measured: +0.3 kB on the login page). Each bar is an image named by its period, amount and
 * count; the chart is one tab stop, and the arrow keys, Home and End move between the bars.
 */
export function ColumnChartPlot({
  titleId,
  bars,
  currency,
  total,
}: {
  titleId: string;
  bars: ChartBar[];
  currency: string;
  total: number;
}) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const id = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const columnRefs = useRef<(SVGGElement | null)[]>([]);
  const width = useWidth(containerRef);
  const [active, setActive] = useState(0);
  const { tooltipOpen, tooltipLeft, tooltipTop, tooltipData, showTooltip, hideTooltip } =
    useTooltip<number>();

  const values = bars.map((b) => b.grossMinor);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const yScale = scaleLinear<number>({ domain: [min, max === min ? 1 : max], nice: VALUE_TICKS });
  const valueTicks = yScale.ticks(VALUE_TICKS);
  const tickLabel = (minor: number) => formatMoneyTick(minor, currency, i18n.language);
  // The value axis is as wide as its longest label, so that no amount up to the bounds is cut off.
  const left = Math.ceil(Math.max(...valueTicks.map((v) => tickLabel(v).length)) * CHAR_PX) + 12;
  const innerWidth = Math.max(40, width - left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  yScale.range([innerHeight, 0]);
  const xScale = scaleBand<string>({
    domain: bars.map((b) => b.key),
    range: [0, innerWidth],
    paddingInner: 0.25,
    paddingOuter: 0.1,
  });
  // Period labels under the bars: every other one when they would not fit side by side.
  const labelled = bars.filter((b) => b.tick);
  const longestTick = Math.max(0, ...labelled.map((b) => b.tick.length)) * CHAR_PX;
  const everyOther = labelled.length > 1 && innerWidth / labelled.length < longestTick + 6;
  const periodTicks = labelled.filter((_, i) => !everyOther || i % 2 === 0).map((b) => b.key);
  const tickOf = new Map(bars.map((b) => [b.key, b.tick]));

  const barName = (b: ChartBar) =>
    t('dashboard:overview.bar_label', {
      period: b.label,
      amount: money(b.grossMinor),
      invoices: t('dashboard:overview.invoice_count', { count: b.count }),
    });
  const show = (index: number) => {
    const bar = bars[index];
    if (!bar) return;
    showTooltip({
      tooltipData: index,
      tooltipLeft: left + (xScale(bar.key) ?? 0) + xScale.bandwidth() / 2,
      tooltipTop: MARGIN.top + yScale(Math.max(0, bar.grossMinor)),
    });
  };
  const move = (event: KeyboardEvent, index: number) => {
    if (event.key === 'Escape') {
      hideTooltip();
      return;
    }
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: bars.length - 1 }[event.key];
    if (next === undefined || next < 0 || next >= bars.length) return;
    event.preventDefault();
    setActive(next);
    columnRefs.current[next]?.focus();
  };
  const shown = tooltipOpen && tooltipData !== undefined ? bars[tooltipData] : undefined;

  return (
    <div className="column-chart__plot" ref={containerRef}>
      {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; the group names the bars inside it */}
      <svg
        width={width}
        height={HEIGHT}
        className="column-chart__svg"
        role="group"
        aria-labelledby={titleId}
        aria-describedby={`${id}-desc`}
      >
        <desc id={`${id}-desc`}>
          {t('dashboard:overview.chart_desc', { total: money(total), max: money(max) })}
        </desc>
        <Group left={left} top={MARGIN.top}>
          {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: this <g> has no tabindex, so it is not focusable; the axes repeat what the bars' names say */}
          <g aria-hidden="true">
            {valueTicks.map((v) => (
              <line
                key={v}
                x1={0}
                x2={innerWidth}
                y1={Math.round(yScale(v)) + 0.5}
                y2={Math.round(yScale(v)) + 0.5}
                className={v === 0 ? 'column-chart__baseline' : 'column-chart__grid'}
              />
            ))}
            <AxisLeft
              scale={yScale}
              tickValues={valueTicks}
              tickFormat={(v) => tickLabel(Number(v))}
              hideAxisLine
              hideTicks
              axisClassName="column-chart__axis column-chart__axis--value"
              tickLabelProps={{
                className: 'column-chart__tick',
                fontSize: 12,
                fontFamily: 'inherit',
                dx: -6,
              }}
            />
            <AxisBottom
              top={innerHeight}
              scale={xScale}
              tickValues={periodTicks}
              tickFormat={(key) => tickOf.get(key) ?? ''}
              hideAxisLine
              hideTicks
              axisClassName="column-chart__axis column-chart__axis--period"
              tickLabelProps={{ className: 'column-chart__tick', fontSize: 12, fontFamily: 'inherit', dy: 2 }}
            />
          </g>
          {bars.map((b, i) => {
            const x = xScale(b.key) ?? 0;
            const top = yScale(Math.max(0, b.grossMinor));
            const height = Math.abs(yScale(b.grossMinor) - yScale(0));
            return (
              // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a bar is an image with a name (period, amount); its tabindex only lets the keyboard reach it and show its tooltip
              <g
                key={b.key}
                ref={(node) => {
                  columnRefs.current[i] = node;
                }}
                role="img"
                aria-label={barName(b)}
                tabIndex={i === active ? 0 : -1}
                className="column-chart__column"
                data-key={b.key}
                onMouseEnter={() => show(i)}
                onMouseLeave={hideTooltip}
                onFocus={() => {
                  setActive(i);
                  show(i);
                }}
                onBlur={hideTooltip}
                onKeyDown={(event) => move(event, i)}
              >
                <rect
                  x={x - (xScale.step() - xScale.bandwidth()) / 2}
                  y={0}
                  width={xScale.step()}
                  height={innerHeight}
                  className="column-chart__hit"
                />
                <Bar x={x} y={top} width={xScale.bandwidth()} height={height} className="column-chart__bar" />
              </g>
            );
          })}
        </Group>
      </svg>
      {shown ? (
        <TooltipWithBounds
          key={shown.key}
          left={tooltipLeft}
          top={tooltipTop}
          unstyled
          className="column-chart__tooltip"
          role="tooltip"
        >
          <span className="column-chart__tooltip-period">{shown.label}</span>
          <span className="column-chart__tooltip-amount">{money(shown.grossMinor)}</span>
          <span className="column-chart__tooltip-count">
            {t('dashboard:overview.invoice_count', { count: shown.count })}
          </span>
        </TooltipWithBounds>
      ) : null}
    </div>
  );
}
