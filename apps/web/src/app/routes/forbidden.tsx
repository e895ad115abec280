import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LockIcon } from '../../components/ui/icons';
import { paths } from '../../config/paths';

/** `/403` (spec §2): the user lacks sufficient permissions. */
export default function ForbiddenRoute() {
  const { t } = useTranslation();
  return (
    <div className="page page--center">
      <LockIcon size={40} />
      <h1 className="page__title">{t('layout:forbidden.title')}</h1>
      <p>{t('layout:forbidden.text')}</p>
      <Link className="btn btn--primary" to={paths.home.getHref()}>
        {t('layout:common.go_home')}
      </Link>
    </div>
  );
}
