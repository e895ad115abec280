import { useParams } from 'react-router';
import { PasswordResetScreen } from '../../features/auth/components/password-reset-screen';
import { QueryScope } from '../query-scope';

/** `/password/reset/{hash}`, named password.reset (spec §2). */
export default function PasswordResetRoute() {
  const { hash = '' } = useParams();
  return (
    <QueryScope>
      <PasswordResetScreen hash={hash} />
    </QueryScope>
  );
}
