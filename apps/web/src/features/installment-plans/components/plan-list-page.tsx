import { type ListInstallmentPlansQuery, PLAN_STATE_NUMBERS, type PlanState } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { LinkedRow } from '../../../components/ui/linked-row';
import { DataTable, ListResults, useListControls } from '../../../components/ui/list-results';
import { ListToolbar } from '../../../components/ui/list-toolbar';
import { MoneyCells } from '../../../components/ui/money-cells';
import { SelectField } from '../../../components/ui/select-field';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { toLanguage } from '../../../lib/i18n';
import { useInstallmentPlans } from '../api/plans';
import { PLAN_STATE_KEYS } from '../utils/labels';
import { PlanStateBadge } from './plan-state-badge';
import '../texts';

export interface PlanListPageProps {
  query: ListInstallmentPlansQuery;
  onQueryChange: (patch: Partial<ListInstallmentPlansQuery>, options?: { replace?: boolean }) => void;
  /** Whether the user may register a plan (the button to the form). */
  canRegister: boolean;
}

/**
 * `/installmentplans` (issue #14): the issuer's installment plans with a state filter, search by
 * description, buyer or loan number, sortable columns and pages, like the invoice history. A row opens
 * the plan. The query lives in the URL.
 */
export function PlanListPage({ query, onQueryChange, canRegister }: PlanListPageProps) {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const navigate = useNavigate();
  const list = useInstallmentPlans(query);
  const { searchProps, resultsProps, tableProps } = useListControls(list, query, onQueryChange);
  const stateOptions = [
    { value: '', label: t('installments:list.all_states') },
    ...PLAN_STATE_NUMBERS.map((state) => ({ value: String(state), label: t(PLAN_STATE_KEYS[state]) })),
  ];

  // Nine columns: at 1366 px the page's usual width cut off the last one, so it takes the screen's width.
  return (
    <div className="list-page list-page--wide plan-page">
      <h1 className="page__title">{t('installments:list.title')}</h1>
      <p className="page__lead">{t('installments:list.lead')}</p>
      <div className="invoice-filters">
        <ListToolbar
          {...searchProps}
          searchLabel={t('installments:list.search')}
          searchHint={t('installments:list.search_hint')}
        >
          {canRegister && (
            <Button
              leadingIcon={PlusIcon}
              label={t('installments:list.new')}
              onClick={() => void navigate(paths.installmentRegister.getHref())}
            />
          )}
        </ListToolbar>
        <SelectField
          label={t('installments:list.state_filter')}
          name="state"
          value={query.state === undefined ? '' : String(query.state)}
          options={stateOptions}
          onChange={(value) =>
            onQueryChange({ state: value === '' ? undefined : (Number(value) as PlanState), page: 1 })
          }
        />
      </div>
      <ListResults
        {...resultsProps}
        pagesLabel={t('installments:list.pages')}
        empty={query.search || query.state ? t('installments:list.no_matches') : t('installments:list.empty')}
      >
        {(data) => (
          <DataTable
            caption={t('installments:list.title')}
            className="data-table plan-table"
            {...tableProps}
            columns={[
              {
                label: t('installments:list.columns.loan_number'),
                sort: 'loanNumber',
                className: 'data-table__key',
              },
              { label: t('installments:list.columns.description') },
              { label: t('installments:list.columns.buyer'), sort: 'recipientName' },
              { label: t('installments:list.columns.start_date'), sort: 'startDate' },
              { label: t('installments:list.columns.installments'), numeric: true },
              { label: t('installments:list.columns.total'), sort: 'total', numeric: true },
              { label: t('installments:list.columns.remaining'), numeric: true },
              { label: t('installments:list.columns.state') },
              { label: t('installments:list.columns.created'), sort: 'created' },
            ]}
          >
            <tbody>
              {data.items.map((plan) => (
                // The loan number is a link for the keyboard; a click anywhere on the row does the same.
                <LinkedRow
                  key={plan.installmentPlanID}
                  to={paths.installmentPlanDetail.getHref(plan.installmentPlanID)}
                >
                  <th scope="row">
                    <Link to={paths.installmentPlanDetail.getHref(plan.installmentPlanID)}>
                      {plan.loanNumber}
                    </Link>
                  </th>
                  <td>{plan.description}</td>
                  <td>{plan.recipientName}</td>
                  <td>{formatDate(plan.startDate, language)}</td>
                  <td className="data-table__number">{plan.noOfInstallments}</td>
                  <MoneyCells
                    amounts={[plan.total, plan.remainingMinor]}
                    currency={plan.currency}
                    language={language}
                  />
                  <td>
                    <PlanStateBadge state={plan.state} />
                  </td>
                  <td>{formatDate(plan.created, language)}</td>
                </LinkedRow>
              ))}
            </tbody>
          </DataTable>
        )}
      </ListResults>
    </div>
  );
}
