import { Navigate, useNavigate, useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useGroup } from '../../features/auth/api/get-group';
import { LoginScreen } from '../../features/auth/components/login-screen';
import { useAfterLoginTarget } from '../../lib/after-login';
import { QueryScope } from '../query-scope';

/** `/{groupid}/login` (spec §2): the branded login; a failed group fetch goes to /login (spec §8). */
export default function GroupLoginRoute() {
  return (
    <QueryScope>
      <GroupLogin />
    </QueryScope>
  );
}

function GroupLogin() {
  const { groupid = '' } = useParams();
  const navigate = useNavigate();
  const target = useAfterLoginTarget();
  const group = useGroup(groupid);
  if (group.isPending) {
    return (
      <div className="page page--center page--full">
        <Spinner size="large" />
      </div>
    );
  }
  if (group.isError) return <Navigate to={paths.login.getHref()} replace />;
  return <LoginScreen group={group.data} onSignedIn={() => void navigate(target, { replace: true })} />;
}
