import { isValidIsoDate } from '@portal/domain/calendar-date';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useRecipients } from '../../features/recipients/api/list-recipients';
import type { PaymentsReportState } from '../../features/reports/api/payments-report';
import { PaymentsReportPage } from '../../features/reports/components/payments-report-page';
import { toIsoDate } from '../../lib/format';

/** The first and last day of the current month, the report's default period. */
function currentMonth(now = new Date()): { from: string; to: string } {
  return {
    from: toIsoDate(new Date(now.getFullYear(), now.getMonth(), 1)),
    to: toIsoDate(new Date(now.getFullYear(), now.getMonth() + 1, 0)),
  };
}

const positive = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** `/reports/payments`: the period, filters and page live in the URL; the period defaults to this month. */
export default function ReportsPaymentsRoute() {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `params`, whose identity changes on every render.
  const query = useMemo((): PaymentsReportState => {
    const month = currentMonth();
    const date = (name: string, fallback: string) => {
      const v = params.get(name);
      return v && isValidIsoDate(v) ? v : fallback;
    };
    return {
      from: date('from', month.from),
      to: date('to', month.to),
      recipientID: params.get('recipientID') || undefined,
      invoiceNumber: params.get('invoiceNumber') || undefined,
      page: positive(params.get('page'), 1),
      pageSize: Math.min(100, positive(params.get('pageSize'), 25)),
    };
  }, [key]);
  const update = useCallback(
    (patch: Partial<PaymentsReportState>) => {
      const next = { ...query, ...patch };
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(next)) if (v !== undefined && v !== '') search.set(k, String(v));
      setParams(search);
    },
    [query, setParams],
  );
  const recipients = useRecipients({ page: 1, pageSize: 100, sort: 'name', order: 'asc', search: undefined });
  return (
    <PaymentsReportPage
      key={`${query.from}|${query.to}`}
      query={query}
      onQueryChange={update}
      recipients={recipients.data?.items ?? []}
    />
  );
}
