import type { Self } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { LockIcon, WarningIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import type { AccountTab } from './account-modal';

/** What the account still has to do (spec §2, §6): initial password, forced two-factor, bank check. */
export function setupState(
  self: Pick<Self, 'lastPasswordChange' | 'force2fa' | 'twoFactorEnabled' | 'issuer'>,
) {
  const needsPassword = self.lastPasswordChange === null;
  const needsTwoFactor = self.force2fa && !self.twoFactorEnabled;
  return {
    needsPassword,
    needsTwoFactor,
    needsBankVerification: !self.issuer.bankAccountVerified,
    isBlocked: needsPassword || needsTwoFactor,
  };
}

interface NoticeProps {
  self: Self;
  onOpenAccount: (tab: AccountTab) => void;
}

/** The warning banners of spec §2. */
export function SetupBanners({ self, onOpenAccount }: NoticeProps) {
  const { t } = useTranslation();
  const state = setupState(self);
  const setupKey =
    state.needsPassword && state.needsTwoFactor
      ? 'layout:banners.password_and_two_factor'
      : state.needsPassword
        ? 'layout:banners.password_only'
        : state.needsTwoFactor
          ? 'layout:banners.two_factor_only'
          : null;
  if (!setupKey && !state.needsBankVerification) return null;
  return (
    <section className="banners" aria-label={t('layout:banners.region')}>
      {state.needsBankVerification && (
        <div className="banner banner--warning">
          <WarningIcon size={18} />
          <span>{t('layout:banners.bank_verification')}</span>
          <Link to={paths.verifyBankAccount.getHref()}>{t('layout:banners.bank_verification_link')}</Link>
        </div>
      )}
      {setupKey && (
        <div className="banner banner--danger">
          <WarningIcon size={18} />
          <span>{t(setupKey)}</span>
          <button
            type="button"
            className="link-button"
            onClick={() => onOpenAccount(state.needsPassword ? 'password' : 'twoFactor')}
          >
            {t('layout:banners.open_account')}
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * The blocking overlay of spec §2: covers the content while the initial password is in use or
 * forced two-factor is not set up. It goes away when `self` shows both done.
 */
export function SetupOverlay({ self, onOpenAccount }: NoticeProps) {
  const { t } = useTranslation();
  const state = setupState(self);
  if (!state.isBlocked) return null;
  return (
    <section className="setup-overlay" aria-labelledby="setup-overlay-title">
      <div className="setup-overlay__panel">
        <LockIcon size={32} />
        <h2 id="setup-overlay-title">{t('layout:overlay.title')}</h2>
        <p>{t('layout:overlay.text')}</p>
        <div className="button-row button-row--center">
          {state.needsPassword && (
            <Button label={t('layout:overlay.change_password')} onClick={() => onOpenAccount('password')} />
          )}
          {state.needsTwoFactor && (
            <Button
              variant={state.needsPassword ? 'secondary' : 'primary'}
              label={t('layout:overlay.set_up_two_factor')}
              onClick={() => onOpenAccount('twoFactor')}
            />
          )}
        </div>
      </div>
    </section>
  );
}
