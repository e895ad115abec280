import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { LoginScreen } from '../../features/auth/components/login-screen';

/** `/login` (spec §2). */
export default function LoginRoute() {
  const navigate = useNavigate();
  return <LoginScreen onSignedIn={() => void navigate(paths.home.getHref(), { replace: true })} />;
}
