import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { PlanForm } from '../../features/installment-plans/components/plan-form';
import { RecipientPicker } from '../../features/recipients/components/recipient-picker';
import { useSelf } from '../../lib/self';

/** `/installment/register` (spec §2): a new installment plan; saved, it opens the plan's page. */
export default function InstallmentRegisterRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useSelf();
  if (!data) return null;
  return (
    <div className="invoice-page">
      <h1 className="page__title">{t('installments:form.title')}</h1>
      <p className="page__lead">{t('installments:form.lead')}</p>
      <PlanForm
        currencies={data.currencies}
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
