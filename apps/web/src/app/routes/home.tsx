import { HomePage } from '../../features/dashboard/components/home-page';
import { useSelf } from '../../lib/self';

/** `/` (spec §2). The root layout has loaded `self` before this renders. */
export default function HomeRoute() {
  const { data } = useSelf();
  return data ? <HomePage self={data} /> : null;
}
