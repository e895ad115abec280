import type { Self } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { CheckIcon, WarningIcon } from '../../../components/ui/icons';
import { formatDate } from '../../../lib/format';
import { DashboardPanels } from './dashboard-panels';

const LATEST_MESSAGES = 5;

function Status({ ok, text }: { ok: boolean; text: string }) {
  return (
    <li className={['status-line', ok ? 'status-line--ok' : 'status-line--warn'].join(' ')}>
      {ok ? <CheckIcon size={16} /> : <WarningIcon size={16} />}
      <span>{text}</span>
    </li>
  );
}

/** The home page (spec §2 `/`): welcome, the issuer, the latest messages and the account status. */
export function HomePage({ self }: { self: Self }) {
  const { t, i18n } = useTranslation();
  const { issuer } = self;
  const messages = [...self.messages].sort((a, b) => b.date.localeCompare(a.date)).slice(0, LATEST_MESSAGES);
  return (
    <div className="page">
      <h1 className="page__title">{t('dashboard:home.welcome', { name: self.firstName })}</h1>
      <p className="page__lead">{t('dashboard:home.lead')}</p>
      <div className="grid grid--3">
        <Card header={t('dashboard:issuer.title')}>
          <dl className="facts">
            <dt>{t('dashboard:issuer.name')}</dt>
            <dd>{issuer.name}</dd>
            <dt>{t('dashboard:issuer.organization_no')}</dt>
            <dd>{issuer.organizationNo}</dd>
            <dt>{t('dashboard:issuer.address')}</dt>
            <dd>
              {issuer.address.address1}
              <br />
              {issuer.address.zipcode} {issuer.address.city}
            </dd>
            <dt>{t('dashboard:issuer.email')}</dt>
            <dd>{issuer.email}</dd>
          </dl>
        </Card>
        <Card header={t('dashboard:messages.title')}>
          {messages.length === 0 ? (
            <p className="muted">{t('dashboard:messages.empty')}</p>
          ) : (
            <ul className="message-list">
              {messages.map((message) => (
                <li key={message.messageID} className={message.read ? undefined : 'message-list__unread'}>
                  <p className="message-list__title">{message.title}</p>
                  <p className="message-list__meta">
                    {message.author} · {formatDate(message.date, i18n.language)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card header={t('dashboard:status.title')}>
          <ul className="status-list">
            {[
              {
                id: 'password',
                ok: self.lastPasswordChange !== null,
                text: self.lastPasswordChange
                  ? t('dashboard:status.password_changed', {
                      date: formatDate(self.lastPasswordChange, i18n.language),
                    })
                  : t('dashboard:status.password_initial'),
              },
              {
                id: 'two-factor',
                ok: self.twoFactorEnabled,
                text: t(
                  self.twoFactorEnabled
                    ? 'dashboard:status.two_factor_on'
                    : 'dashboard:status.two_factor_off',
                ),
              },
              {
                id: 'bank',
                ok: issuer.bankAccountVerified,
                text: t(
                  issuer.bankAccountVerified
                    ? 'dashboard:status.bank_verified'
                    : 'dashboard:status.bank_unverified',
                ),
              },
            ].map((status) => (
              <Status key={status.id} ok={status.ok} text={status.text} />
            ))}
          </ul>
        </Card>
      </div>
      <DashboardPanels />
    </div>
  );
}
