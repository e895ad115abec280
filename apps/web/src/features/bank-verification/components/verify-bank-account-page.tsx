import type { Language } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toLanguage } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { useBankVerification } from '../api/get-bank-verification';
import { useVerificationBanks } from '../api/list-verification-banks';
import { useStartBankVerification } from '../api/start-bank-verification';
import { VerifiedAccount } from './verified-account';
import '../texts';

const COUNTRY_KEYS = {
  SE: 'bank-verification:countries.SE',
  FI: 'bank-verification:countries.FI',
} as const;

/**
 * `/verify-bank-account` (spec §2): the banks of the issuer's country with their logos; choosing one
 * starts a session at the provider and sends the browser to the bank's page. "Failure to fetch banks"
 * and "failure to start the onboarding flow" (spec §8) are shown with a "try again".
 */
export function VerifyBankAccountPage({
  companyName,
  hasTwoFactor,
  goTo = (url) => window.location.assign(url),
}: {
  companyName: string;
  /** Whether the user has two-factor on: needed to replace a verified account. */
  hasTwoFactor: boolean;
  /** Where the browser goes to the provider's page; a test passes its own. */
  goTo?: (url: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const current = useBankVerification();
  const banks = useVerificationBanks();
  const start = useStartBankVerification();
  const [chosen, setChosen] = useState<string | null>(null);

  function choose(bankId: string) {
    setChosen(bankId);
    start.mutate(
      { bankId, language: toLanguage(i18n.language) as Language },
      { onSuccess: ({ redirectUrl }) => goTo(redirectUrl) },
    );
  }

  const account = current.data?.account ?? null;
  const chosenName = banks.data?.banks.find((b) => b.id === chosen)?.name ?? '';
  const isLeaving = start.isPending || start.isSuccess;
  return (
    <div className="page bank-verification">
      <div className="bank-verification__head">
        <h1 className="page__title">{t('bank-verification:title')}</h1>
        {banks.data?.demo && (
          <span className="demo-badge" title={t('bank-verification:demo_note')}>
            {t('bank-verification:demo_badge')}
          </span>
        )}
      </div>
      <p className="page__lead">{t('bank-verification:lead', { company: companyName })}</p>

      {account && (
        <Card header={t('bank-verification:current.title')} className="bank-verification__section">
          <p>{t('bank-verification:current.text')}</p>
          <VerifiedAccount account={account} />
          <p className="page__lead">{t('bank-verification:current.again')}</p>
          {!hasTwoFactor && (
            <p className="notice notice--warning">{t('bank-verification:current.needs_two_factor')}</p>
          )}
        </Card>
      )}

      <section className="bank-verification__section" aria-labelledby="bank-list-title">
        <h2 id="bank-list-title">
          {banks.data
            ? t('bank-verification:banks', { country: t(COUNTRY_KEYS[banks.data.country]) })
            : t('bank-verification:loading')}
        </h2>
        {banks.isPending && <Spinner />}
        {banks.isError && (
          <div role="alert" className="notice notice--error">
            <p>{errorText(t, banks.error)}</p>
            <Button variant="secondary" onClick={() => void banks.refetch()}>
              {t('bank-verification:retry')}
            </Button>
          </div>
        )}
        {start.isError && (
          <div role="alert" className="notice notice--error">
            <p>{errorText(t, start.error)}</p>
            <Button variant="secondary" onClick={() => chosen && choose(chosen)}>
              {t('bank-verification:retry')}
            </Button>
          </div>
        )}
        {isLeaving && (
          <p role="status" className="notice notice--success">
            {t('bank-verification:redirecting', { bank: chosenName })}
          </p>
        )}
        {banks.data && (
          <ul className="bank-list">
            {banks.data.banks.map((bank) => (
              <li key={bank.id}>
                <button
                  type="button"
                  className="bank-list__button"
                  disabled={isLeaving}
                  onClick={() => choose(bank.id)}
                >
                  {bank.logo ? (
                    <img className="bank-list__logo" src={bank.logo} alt="" />
                  ) : (
                    <span className="bank-list__logo" aria-hidden="true" />
                  )}
                  <span>{bank.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
