import type { DashboardResponse } from '@portal/contracts';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { TableHead } from '../../../components/ui/sortable-header';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { formatMoney } from '../../../lib/money';
import { bucketLabelKey } from '../../../lib/overdue-buckets';
import { useDashboard } from '../api/get-dashboard';
import { type ChartBar, ColumnChart } from './column-chart';

function monthLabel(month: string, language: string, style: 'short' | 'long'): string {
  const date = new Date(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1);
  return new Intl.DateTimeFormat(
    language,
    style === 'long' ? { month: 'long', year: 'numeric' } : { month: 'short' },
  ).format(date);
}

const PLAN_GROUPS = ['signing', 'active', 'arrears', 'ended'] as const;

/**
 * The installment plans at a glance (issue #14): how many in each group of states and the principal
 * still owed; the server answers them only to a user with contract financing.
 */
function PlansCard({
  plans,
  money,
}: {
  plans: NonNullable<DashboardResponse['installmentPlans']>;
  money: (minor: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <Card header={t('dashboard:plans.title')}>
      <dl className="facts" data-testid="dashboard-plans">
        {PLAN_GROUPS.map((group) => (
          <Fragment key={group}>
            <dt>{t(`dashboard:plans.${group}`)}</dt>
            <dd>{plans.counts[group]}</dd>
          </Fragment>
        ))}
        <dt>{t('dashboard:plans.open_principal')}</dt>
        <dd>{money(plans.openPrincipalMinor)}</dd>
      </dl>
      <p>
        <Link to={paths.installmentPlans.getHref()}>{t('dashboard:plans.all')}</Link>
      </p>
    </Card>
  );
}

/**
 * What we and the issuer owe each other (issue #16), apart: what the next payout run pays it, and what
 * it owes us (its open debt claims, docs/MONEY.md "Debt claims").
 */
function BalanceCard({
  balance,
  currency,
  money,
}: {
  balance: DashboardResponse['balance'];
  currency: string;
  money: (minor: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <Card header={t('dashboard:balance.title', { currency })}>
      <dl className="facts" data-testid="dashboard-balance">
        <dt>{t('dashboard:balance.owedToYou')}</dt>
        <dd>{money(balance.owedToYouMinor)}</dd>
        <dt>{t('dashboard:balance.owedByYou')}</dt>
        <dd>{money(balance.owedByYouMinor)}</dd>
        {balance.openClaims > 0 && (
          <>
            <dt>{t('dashboard:balance.openClaims')}</dt>
            <dd>{balance.openClaims}</dd>
          </>
        )}
      </dl>
      <p className="muted">
        {balance.openClaims > 0 ? t('dashboard:balance.claims') : t('dashboard:balance.owedToYouHint')}
      </p>
    </Card>
  );
}

function Panels({ data }: { data: DashboardResponse }) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const money = (minor: number) => formatMoney(minor, data.currency, language);
  const number = new Intl.NumberFormat(language);
  const topMax = Math.max(1, ...data.topCustomers.map((c) => c.grossMinor));
  const days: ChartBar[] = data.sales30Days.map((d, i) => ({
    key: d.date,
    label: formatDate(d.date, language),
    tick: i % 5 === 4 ? String(Number(d.date.slice(8, 10))) : '',
    grossMinor: d.grossMinor,
    count: d.count,
  }));
  const months: ChartBar[] = data.sales12Months.map((m) => ({
    key: m.month,
    label: monthLabel(m.month, language, 'long'),
    tick: monthLabel(m.month, language, 'short'),
    grossMinor: m.grossMinor,
    count: m.count,
  }));
  const empty =
    data.sales12Months.every((m) => m.count === 0) && data.overdueBuckets.every((b) => b.count === 0);
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <h2 id="dashboard-title" className="dashboard__title">
        {t('dashboard:overview.title', { currency: data.currency })}
      </h2>
      {empty ? (
        <p className="muted" data-testid="dashboard-empty">
          {t('dashboard:overview.empty')}
        </p>
      ) : null}
      <div className="grid grid--2">
        <ColumnChart title={t('dashboard:overview.sales_30_days')} bars={days} currency={data.currency} />
        <ColumnChart title={t('dashboard:overview.sales_12_months')} bars={months} currency={data.currency} />
        <Card header={t('dashboard:overview.top_customers')}>
          {data.topCustomers.length === 0 ? (
            <p className="muted">{t('dashboard:overview.no_customers')}</p>
          ) : (
            <table className="data-table top-customers">
              <TableHead
                columns={[
                  { label: t('dashboard:overview.customer') },
                  { label: t('dashboard:overview.count'), numeric: true },
                  { label: t('dashboard:overview.amount'), numeric: true },
                ]}
              />
              <tbody>
                {data.topCustomers.map((c) => (
                  <tr key={c.recipientID}>
                    <th scope="row">
                      <Link to={`/invoices?recipientID=${c.recipientID}`}>{c.name}</Link>
                      <span
                        className="top-customers__bar"
                        aria-hidden="true"
                        style={{ width: `${Math.max(1, Math.round((c.grossMinor / topMax) * 100))}%` }}
                      />
                    </th>
                    <td className="data-table__number">{number.format(c.invoiceCount)}</td>
                    <td className="data-table__number">{money(c.grossMinor)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        <Card header={t('dashboard:overview.overdue')}>
          <ul className="overdue-buckets">
            {data.overdueBuckets.map((b) => (
              <li key={b.bucket} data-bucket={b.bucket}>
                <Link
                  to={`/invoices?bucket=${encodeURIComponent(b.bucket)}`}
                  className="overdue-buckets__link"
                >
                  <span className="overdue-buckets__label">{t(bucketLabelKey(b.bucket))}</span>
                  <span className="overdue-buckets__count" data-testid="bucket-count">
                    {t('dashboard:overview.invoice_count', { count: b.count })}
                  </span>
                  <span className="overdue-buckets__amount">{money(b.remainingMinor)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
        <BalanceCard balance={data.balance} currency={data.currency} money={money} />
        {data.installmentPlans && <PlansCard plans={data.installmentPlans} money={money} />}
      </div>
    </section>
  );
}

/** The dashboard of spec §1 under the home page's welcome: always shown, whatever the abilities. */
export function DashboardPanels() {
  const { t } = useTranslation();
  const { data, isError } = useDashboard();
  if (isError) return <p className="muted">{t('dashboard:overview.failed')}</p>;
  if (!data) return <p className="muted">{t('dashboard:overview.loading')}</p>;
  return <Panels data={data} />;
}
