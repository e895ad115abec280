import { sumMinor } from '@portal/domain/money';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { toLanguage } from '../../../lib/i18n';
import { formatMoney } from '../../../lib/money';
import { ColumnChartPlot } from './column-chart-plot';
import './column-chart.css';

/** One column of the chart: a period (a day, a month) and what was invoiced in it. */
export interface ChartBar {
  key: string;
  /** The period in full, for the tooltip and the bar's accessible name ("3 November 2026"). */
  label: string;
  /** A short label under the bar ("nov."); empty for none. */
  tick: string;
  grossMinor: number;
  count: number;
}

/**
 * A card with a column chart of invoiced amounts per period (spec §1, issue #11): the period's total
 * beside the title (summed exactly in minor units), then the plot (column-chart-plot.tsx: value axis,
 * tooltip on hover and keyboard focus, a name per bar for screen readers), or a plain empty state
 * when nothing was invoiced in the period.
 */
export function ColumnChart({
  title,
  bars,
  currency,
}: {
  title: string;
  bars: ChartBar[];
  currency: string;
}) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const id = useId();
  const money = (minor: number) => formatMoney(minor, currency, language);
  const total = sumMinor(bars.map((b) => b.grossMinor));
  const isEmpty = bars.every((b) => b.grossMinor === 0);
  return (
    <Card
      className="column-chart"
      header={
        <div className="column-chart__header">
          <h2 className="card__title" id={`${id}-title`}>
            {title}
          </h2>
          <p className="column-chart__total" data-testid="chart-total">
            {t('dashboard:overview.total', { total: money(total) })}
          </p>
        </div>
      }
    >
      {isEmpty ? (
        <p className="muted column-chart__empty" data-testid="chart-empty">
          {t('dashboard:overview.chart_empty')}
        </p>
      ) : (
        <ColumnChartPlot titleId={`${id}-title`} bars={bars} currency={currency} total={total} />
      )}
    </Card>
  );
}
