import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { LockIcon } from '../../components/ui/icons';
import { catchAllOutcome, paths } from '../../config/paths';
import { useSelf } from '../../lib/self';

// The two status pages share one chunk: neither is worth a request of its own.

/** A page that only says why there is nothing to show: its sign, a title, a line, and the way home. */
function StatusPage({ sign, title, text }: { sign: ReactNode; title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <div className="page page--center">
      {sign}
      <h1 className="page__title">{title}</h1>
      <p>{text}</p>
      <Link className="btn btn--primary" to={paths.home.getHref()}>
        {t('layout:common.go_home')}
      </Link>
    </div>
  );
}

/**
 * The catch-all (spec §2). Screens that land in later issues have no route yet, but the navigation
 * guard still applies to their paths: a known gated path the abilities lack goes to /403.
 */
export default function NotFoundRoute() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data } = useSelf();
  if (catchAllOutcome(pathname, data?.abilities ?? []) === 'forbidden') {
    return <Navigate to={paths.forbidden.getHref()} replace />;
  }
  return (
    <StatusPage
      sign={
        <p className="page__code" aria-hidden="true">
          404
        </p>
      }
      title={t('layout:not_found.title')}
      text={t('layout:not_found.text')}
    />
  );
}

/** `/403` (spec §2): the user lacks sufficient permissions. */
export function ForbiddenRoute() {
  const { t } = useTranslation();
  return (
    <StatusPage
      sign={<LockIcon size={40} />}
      title={t('layout:forbidden.title')}
      text={t('layout:forbidden.text')}
    />
  );
}
