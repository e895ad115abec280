import { type ReactNode, useContext } from 'react';
import { Navigate } from 'react-router';
import { type AppPath, isPathAllowed, paths } from '../config/paths';
import { isSignedIn, useSession } from '../lib/session-store';
import { AbilitiesContext } from './abilities';

/** Where a signed-out user goes: the group login of the last group, else /login (spec §2, §4). */
function useLoginHref(): string {
  const groupId = useSession((s) => s.group?.id);
  return groupId ? paths.groupLogin.getHref(groupId) : paths.login.getHref();
}

/** Spec §2: a user without a session is sent to login from every non-public route. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSession(isSignedIn);
  const loginHref = useLoginHref();
  if (!signedIn) return <Navigate to={loginHref} replace />;
  return children;
}

/** Spec §2: a signed-in user opening login goes to /. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const signedIn = useSession(isSignedIn);
  if (signedIn) return <Navigate to={paths.home.getHref()} replace />;
  return children;
}

/**
 * Spec §2: a route with a permission key is blocked to /403 when the loaded abilities list is
 * non-empty and lacks the key. Abilities come from `self`, which the root layout has loaded and provides.
 */
export function RequirePermission({ path, children }: { path: AppPath; children: ReactNode }) {
  const abilities = useContext(AbilitiesContext);
  if (!isPathAllowed(abilities, path)) return <Navigate to={paths.forbidden.getHref()} replace />;
  return children;
}
