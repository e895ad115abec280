import { matchPath } from 'react-router';

/** Routes reachable without a session (spec §2). */
export const PUBLIC_ROUTE_PATTERNS = ['/login', '/:groupid/login', '/password/reset/:hash'] as const;

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_ROUTE_PATTERNS.some((pattern) => matchPath(pattern, pathname) !== null);
}
