import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { catchAllOutcome, paths } from '../../config/paths';
import { useSelf } from '../../lib/self';

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
    <div className="page page--center">
      <p className="page__code" aria-hidden="true">
        404
      </p>
      <h1 className="page__title">{t('layout:not_found.title')}</h1>
      <p>{t('layout:not_found.text')}</p>
      <Link className="btn btn--primary" to={paths.home.getHref()}>
        {t('layout:common.go_home')}
      </Link>
    </div>
  );
}
