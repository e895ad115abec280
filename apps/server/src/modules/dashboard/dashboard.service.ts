import { type DashboardResponse, OVERDUE_BUCKETS } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import type { Db } from '../../db/client';
import { minorOf } from '../../lib/minor';
import { plansDashboard } from '../installments/installments.service';
import { balanceOf } from '../money/money.service';
import { dashboardFigures, mainCurrency } from './dashboard.repository';

const TOP_CUSTOMERS = 10;
const DAYS = 30;
const MONTHS = 12;

/** A bigint sum PostgreSQL sent as text, as an exact integer (refused past 2^53 rather than rounded). */
const minor = minorOf;

/** The first day of the month `back` months before the month of `date` (after it when negative). */
function monthStart(date: string, back: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 - back;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * The dashboard of the caller's issuer (spec §1), read from the figures kept per day, month and due
 * date (migration 0012): a few hundred small rows whatever the number of invoices; what we and the
 * issuer owe each other (issue #16); with contract financing also its installment plans by state
 * group (issue #14).
 */
export async function loadDashboard(
  db: Db,
  caller: { issuerId: string; abilities: readonly string[] },
  today: string,
): Promise<DashboardResponse> {
  const { issuerId } = caller;
  const currency = await mainCurrency(db, issuerId);
  // The figures, the balance and the plans are independent: one wait for all of them.
  const [figures, balance, installmentPlans] = await Promise.all([
    salesAndOverdue(db, issuerId, currency, today),
    balanceOf(db, issuerId, currency),
    caller.abilities.includes('limited_contract_financing')
      ? plansDashboard(db, issuerId, currency)
      : undefined,
  ]);
  // The answer's keys in the order of the contract: currency, balance, then the figures.
  const dashboard = { currency, balance, ...figures };
  return installmentPlans ? { ...dashboard, installmentPlans } : dashboard;
}

async function salesAndOverdue(
  db: Db,
  issuerId: string,
  currency: string,
  today: string,
): Promise<Omit<DashboardResponse, 'currency' | 'balance'>> {
  const firstMonth = monthStart(today, MONTHS - 1);
  const nextMonth = monthStart(today, -1);
  const firstDay = addDays(today, -(DAYS - 1));
  const { days, top, overdue } = await dashboardFigures(db, issuerId, currency, {
    today,
    firstMonth,
    nextMonth,
    topCustomers: TOP_CUSTOMERS,
  });
  const byMonth = new Map<string, { n: number; gross: number }>();
  const byDay = new Map<string, { n: number; gross: number }>();
  for (const r of days) {
    const gross = minor(r.gross);
    if (r.day >= firstDay) byDay.set(r.day, { n: r.n, gross });
    const month = r.day.slice(0, 7);
    const m = byMonth.get(month) ?? { n: 0, gross: 0 };
    byMonth.set(month, { n: m.n + r.n, gross: m.gross + gross });
  }
  const buckets = new Map(overdue.map((b) => [b.bucket, b]));
  return {
    topCustomers: top.map((t) => ({
      recipientID: t.recipient_id,
      name: t.name,
      invoiceCount: t.n,
      grossMinor: minor(t.gross),
    })),
    sales30Days: Array.from({ length: DAYS }, (_, i) => {
      const date = addDays(firstDay, i);
      const v = byDay.get(date);
      return { date, grossMinor: v?.gross ?? 0, count: v?.n ?? 0 };
    }),
    sales12Months: Array.from({ length: MONTHS }, (_, i) => {
      const month = monthStart(today, MONTHS - 1 - i).slice(0, 7);
      const v = byMonth.get(month);
      return { month, grossMinor: v?.gross ?? 0, count: v?.n ?? 0 };
    }),
    overdueBuckets: OVERDUE_BUCKETS.map((bucket) => {
      const b = buckets.get(bucket);
      return { bucket, count: b?.n ?? 0, remainingMinor: minor(b?.remaining ?? '0') };
    }),
  };
}
