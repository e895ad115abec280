import { isValidIsoDate } from '@portal/domain/calendar-date';
import { useEffect, useState } from 'react';
import { DateField } from './date-field';

export interface DateRangeValue {
  from: string | undefined;
  to: string | undefined;
}

export interface DateRangeProps {
  /** ISO dates, or '' for an open end. */
  from: string;
  to: string;
  onChange: (range: DateRangeValue) => void;
  /** Names the pair (the fieldset's legend). */
  legend: string;
  /** The legend is read by a screen reader only (the page already says what the dates are of). */
  hideLegend?: boolean;
  fromLabel: string;
  toLabel: string;
}

/**
 * A from–to pair of dates above a list. A date is applied once it is complete; a range whose end is
 * before its start is shown as an error (`reports.wrong_date_range`) and not applied.
 */
export function DateRange({ from, to, onChange, legend, hideLegend, fromLabel, toLabel }: DateRangeProps) {
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const wrongOrder = draft.from !== '' && draft.to !== '' && draft.to < draft.from;

  function change(next: { from: string; to: string }) {
    setDraft(next);
    const complete = (v: string) => v === '' || isValidIsoDate(v);
    if (!complete(next.from) || !complete(next.to)) return;
    if (next.from !== '' && next.to !== '' && next.to < next.from) return;
    onChange({ from: next.from || undefined, to: next.to || undefined });
  }

  return (
    <fieldset className="date-range">
      <legend className={hideLegend ? 'visually-hidden' : 'field__label'}>{legend}</legend>
      <div className="date-range__fields">
        <DateField
          label={fromLabel}
          name="from"
          value={draft.from}
          onChange={(value) => change({ ...draft, from: value })}
        />
        <DateField
          label={toLabel}
          name="to"
          value={draft.to}
          onChange={(value) => change({ ...draft, to: value })}
          error={wrongOrder ? 'reports.wrong_date_range' : undefined}
        />
      </div>
    </fieldset>
  );
}
