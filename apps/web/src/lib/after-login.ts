import { useSearchParams } from 'react-router';
import { findAppPath, paths } from '../config/paths';

/** The query parameter of a login page that names where the user was going (a deep link). */
export const NEXT_PARAM = 'next';

/**
 * Where to go after signing in, from the `next` of the login address: only a path of this app (one
 * slash, a known screen that is not a login page), never another site (`//evil.example`, `/\evil`,
 * `https://…`); anything else is the home page.
 */
export function afterLoginTarget(next: string | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.includes('\\')) return paths.home.getHref();
  let url: URL;
  try {
    url = new URL(next, 'http://portal.invalid');
  } catch {
    return paths.home.getHref();
  }
  if (url.origin !== 'http://portal.invalid') return paths.home.getHref();
  const known = findAppPath(url.pathname);
  if (!known || known === paths.login || known === paths.groupLogin || known === paths.passwordReset)
    return paths.home.getHref();
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login address that brings the user back to `pathname + search` once signed in. */
export function loginHrefFor(loginHref: string, pathname: string, search: string): string {
  const target = `${pathname}${search}`;
  if (target === paths.home.getHref()) return loginHref;
  return `${loginHref}?${NEXT_PARAM}=${encodeURIComponent(target)}`;
}

/** The page to open after signing in on the current login page. */
export function useAfterLoginTarget(): string {
  const [params] = useSearchParams();
  return afterLoginTarget(params.get(NEXT_PARAM));
}
