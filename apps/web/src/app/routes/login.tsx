import { useNavigate } from 'react-router';
import { LoginScreen } from '../../features/auth/components/login-screen';
import { useAfterLoginTarget } from '../../lib/after-login';

/** `/login` (spec §2). */
export default function LoginRoute() {
  const navigate = useNavigate();
  const target = useAfterLoginTarget();
  return <LoginScreen onSignedIn={() => void navigate(target, { replace: true })} />;
}
