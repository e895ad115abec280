import { canOpenPage, listInstallmentPlansQuerySchema } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import {
  PlanDetailPage,
  type PlanNotice,
} from '../../features/installment-plans/components/plan-detail-page';
import { PlanForm } from '../../features/installment-plans/components/plan-form';
import { PlanListPage } from '../../features/installment-plans/components/plan-list-page';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useListParams } from '../../lib/list-params';
import { useSelf } from '../../lib/self';

// The plan screens are one chunk: as three, each lazy route's list of chunks to fetch went into the
// entry, which the login page downloads (its size budget).

/** `/installmentplans` (spec §2): the plans; state, search, sort and page come from the URL. */
export default function InstallmentPlansRoute() {
  const [query, setQuery] = useListParams(listInstallmentPlansQuerySchema);
  const { data } = useSelf();
  return (
    <PlanListPage
      query={query}
      onQueryChange={setQuery}
      canRegister={canOpenPage(data?.abilities ?? [], paths.installmentRegister)}
    />
  );
}

function noticeOf(state: unknown): PlanNotice | null {
  return (state as { notice?: unknown } | null)?.notice === 'registered' ? 'registered' : null;
}

/**
 * `/installmentplans/{id}`: one installment plan; a notice when the form has just registered it. The
 * notice is read once and taken out of the history entry, so a reload (which keeps the entry's state)
 * or coming back to the page does not say "registered" again.
 */
export function InstallmentPlanDetailRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [arrival] = useState(() => ({ id, notice: noticeOf(location.state) }));
  const carriesNotice = noticeOf(location.state) !== null;
  useEffect(() => {
    if (carriesNotice)
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [carriesNotice, navigate, location.pathname, location.search]);
  return <PlanDetailPage key={id} planID={id} notice={arrival.id === id ? arrival.notice : null} />;
}

/**
 * `/installment/register` (spec §2): a new installment plan; saved, it opens the plan's page.
 * `?replaces=<plan id>` (a plan page's "Replace plan") opens it as that plan's replacement.
 */
export function InstallmentRegisterRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { data } = useSelf();
  if (!data) return null;
  return (
    <div className="invoice-page">
      <h1 className="page__title">{t('installments:form.title')}</h1>
      <p className="page__lead">{t('installments:form.lead')}</p>
      <PlanForm
        currencies={data.currencies}
        replacesPlanID={search.get('replaces') ?? undefined}
        RecipientPicker={RecipientPicker}
        onSaved={(plan) =>
          void navigate(paths.installmentPlanDetail.getHref(plan.installmentPlanID), {
            state: { notice: 'registered' },
          })
        }
        onCancel={() => void navigate(paths.installmentPlans.getHref())}
      />
    </div>
  );
}
