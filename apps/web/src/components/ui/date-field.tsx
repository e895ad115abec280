import { type CalendarDate, parseDate } from '@internationalized/date';
import { isValidIsoDate } from '@portal/domain/calendar-date';
import { type Ref, useContext, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import {
  DateField as AriaDateField,
  DateFieldStateContext,
  DateInput,
  DateSegment,
  Label,
  Text,
} from 'react-aria-components/DateField';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';
import { toLanguage } from '../../lib/i18n';
import { translateCode } from '../../lib/messages';
import { RequiredMark } from './text-input';

export interface DateFieldProps {
  label: string;
  name: string;
  /** An ISO date `yyyy-mm-dd`, or '' (also for anything that is not a valid ISO date). */
  value: string | null | undefined;
  /** Called with the ISO date once every segment is filled, and with '' when the date is cleared or incomplete. */
  onChange?: (value: string) => void;
  onBlur?: () => void;
  /** What a form library focuses on an error (react-hook-form's field.ref): focuses the first segment. */
  inputRef?: Ref<{ focus: () => void }>;
  required?: boolean;
  disabled?: boolean;
  /** An error code from outside (a form resolver or the server), translated like TextInput's. */
  error?: string;
  errorParams?: Record<string, unknown>;
  hint?: string;
  id?: string;
  /** The wrapper's extra class. */
  className?: string;
  /** Marks the first segment `data-autofocus`: a Modal opening with this field puts the focus there. */
  autoFocus?: boolean;
}

/** The ISO date a value names, or '' when it names none (empty, incomplete, 2026-02-31). */
function isoOf(value: string | null | undefined): string {
  return value && isValidIsoDate(value) ? value : '';
}

function toCalendarDate(iso: string): CalendarDate | null {
  return iso === '' ? null : parseDate(iso);
}

const pad = (n: number | null | undefined, width: number) => String(n ?? 0).padStart(width, '0');

/**
 * Reports the date the segments show: the ISO date once year, month and day are filled and make a real
 * date, otherwise ''. React Aria keeps its last complete value while a person edits one segment of it;
 * the form must not keep a date the field no longer shows.
 */
function ShownDate({ onShown }: { onShown: (iso: string) => void }) {
  const state = useContext(DateFieldStateContext);
  const parts = new Map((state?.segments ?? []).filter((s) => s.isEditable).map((s) => [s.type, s]));
  const [year, month, day] = [parts.get('year'), parts.get('month'), parts.get('day')];
  const complete = [year, month, day].every((s) => s && !s.isPlaceholder);
  const text = complete ? `${pad(year?.value, 4)}-${pad(month?.value, 2)}-${pad(day?.value, 2)}` : '';
  const shown = isoOf(text);
  const report = useRef(onShown);
  report.current = onShown;
  useEffect(() => report.current(shown), [shown]);
  return null;
}

/**
 * The one date field of the portal: a segmented field (React Aria's DateField) whose order and
 * placeholders follow the UI language (åååå-mm-dd in sv-SE, mm/dd/yyyy in en-US, p.k.vvvv in fi-FI, each as the language writes a date),
 * never the browser's locale, while its value stays an ISO `yyyy-mm-dd` string for forms and the API.
 * Label, required mark and the translated error look like TextInput's; each segment is a spin button
 * labelled by the field's label, aria-invalid and described by the error.
 */
export function DateField({
  label,
  name,
  value,
  onChange,
  onBlur,
  inputRef,
  required,
  disabled,
  error,
  errorParams,
  hint,
  id,
  className,
  autoFocus,
}: DateFieldProps) {
  const { t, i18n } = useTranslation();
  const ownId = useId();
  const fieldId = id ?? ownId;
  const groupRef = useRef<HTMLDivElement>(null);
  const iso = isoOf(value);
  // The field's own value, kept as one object while it does not change (React Aria starts the shown
  // segments over whenever the value object changes), and the ISO date last given to onChange.
  const [current, setCurrent] = useState(() => toCalendarDate(iso));
  const given = useRef(iso);
  useEffect(() => {
    // A value set from outside (a reset, a due date worked out from the terms) replaces what is shown.
    if (iso === given.current) return;
    given.current = iso;
    setCurrent(toCalendarDate(iso));
  }, [iso]);
  useImperativeHandle(
    inputRef,
    () => ({
      focus: () => groupRef.current?.querySelector<HTMLElement>('[role="spinbutton"]')?.focus(),
    }),
    [],
  );

  // The render function below is called once per segment, in order, on every render.
  let marked = false;
  return (
    <I18nProvider locale={toLanguage(i18n.language)}>
      <AriaDateField
        id={fieldId}
        name={name}
        value={current}
        onChange={setCurrent}
        onBlur={onBlur}
        isRequired={required}
        isDisabled={disabled}
        isInvalid={Boolean(error)}
        validationBehavior="aria"
        className={['field', error && 'field--invalid', className].filter(Boolean).join(' ')}
      >
        <ShownDate
          onShown={(shown) => {
            if (shown === given.current) return;
            given.current = shown;
            onChange?.(shown);
          }}
        />
        <Label className="field__label">
          {label}
          {/* `required` gives the segments aria-required. */}
          {required && <RequiredMark />}
        </Label>
        <DateInput ref={groupRef} className="field__input date-field__input">
          {(segment) => {
            const first = Boolean(autoFocus) && segment.isEditable && !marked;
            if (first) marked = true;
            return (
              <DateSegment
                segment={segment}
                className="date-field__segment"
                data-autofocus={first ? '' : undefined}
              />
            );
          }}
        </DateInput>
        {hint && (
          <Text slot="description" className="field__hint">
            {hint}
          </Text>
        )}
        {error && (
          <Text slot="errorMessage" className="field__error" role="alert">
            {translateCode(t, error, errorParams)}
          </Text>
        )}
      </AriaDateField>
    </I18nProvider>
  );
}

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
