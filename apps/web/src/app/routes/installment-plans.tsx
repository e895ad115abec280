import { canOpenPage, listInstallmentPlansQuerySchema } from '@portal/contracts';
import { paths } from '../../config/paths';
import { PlanListPage } from '../../features/installment-plans/components/plan-list-page';
import { useListParams } from '../../lib/list-params';
import { useSelf } from '../../lib/self';

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
