import { isPageAllowed } from '@portal/contracts';
import { type ReactNode, useContext } from 'react';
import { Navigate, useLocation } from 'react-router';
import { type AppPath, paths } from '../config/paths';
import { loginHrefFor, useAfterLoginTarget } from '../lib/after-login';
import { isSignedIn, useSession } from '../lib/session-store';
import { AbilitiesContext } from './abilities';

/** Where a signed-out user goes: the group login of the last group, else /login (spec §2, §4). */
function useLoginHref(): string {
  const groupId = useSession((s) => s.group?.id);
  return groupId ? paths.groupLogin.getHref(groupId) : paths.login.getHref();
}

/**
 * Spec §2: a user without a session is sent to login from every non-public route. The address asked
 * for rides along (`?next=`), so the user lands on it once signed in (issue #11: a deep link survives).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSession(isSignedIn);
  const loginHref = useLoginHref();
  const location = useLocation();
  if (!signedIn) return <Navigate to={loginHrefFor(loginHref, location.pathname, location.search)} replace />;
  return children;
}

/** Spec §2: a signed-in user opening login goes to / (or to the page the login was asked for). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const signedIn = useSession(isSignedIn);
  const target = useAfterLoginTarget();
  if (signedIn) return <Navigate to={target} replace />;
  return children;
}

/**
 * Spec §2: a route with a permission key is blocked to /403 when the loaded abilities list is
 * non-empty and lacks the key. Abilities come from `self`, which the root layout has loaded and provides.
 */
export function RequirePermission({ path, children }: { path: AppPath; children: ReactNode }) {
  const abilities = useContext(AbilitiesContext);
  if (!isPageAllowed(abilities, path)) return <Navigate to={paths.forbidden.getHref()} replace />;
  return children;
}
