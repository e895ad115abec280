import type { CompleteBankVerificationBody } from '@portal/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/messages';
import { useCompleteBankVerification } from '../api/complete-bank-verification';
import { useConfirmBankAccountChange } from '../api/confirm-bank-account-change';
import { useBankVerification } from '../api/get-bank-verification';
import { ConfirmAccountChange } from './confirm-account-change';
import { VerifiedAccount } from './verified-account';
import '../texts';

/**
 * `/verify-bank-account-success` (spec §2): the provider sends the browser back here with our state.
 * The page hands the query to the server once, which reads the result from the provider and decides;
 * it then shows the verified account (masked) or, in the user's language, why not, with "try again".
 * An account other than the issuer's verified one waits for the user's two-factor code (the confirm
 * step) before it replaces it. Without a state it shows the current verified account, if any.
 */
export function VerificationResultPage({
  query,
  verifyHref,
  homeHref,
  onVerified,
}: {
  /** The provider's query parameters; null when the page was opened without a state. */
  query: CompleteBankVerificationBody | null;
  verifyHref: string;
  homeHref: string;
  /** The shell reloads `self` (the banner goes) and the messages (the notice). */
  onVerified: () => void;
}) {
  const { t } = useTranslation();
  const complete = useCompleteBankVerification(onVerified);
  const confirm = useConfirmBankAccountChange(onVerified);
  const outcome = confirm.data ?? complete.data;
  const current = useBankVerification();
  const sent = useRef(false);
  useEffect(() => {
    // Once per visit: a second call would be answered the same outcome, but logged as a replay.
    if (!query || sent.current) return;
    sent.current = true;
    complete.mutate(query);
  }, [query, complete]);

  const tryAgain = (
    <div className="bank-verification__actions">
      <Link className="btn btn--primary" to={verifyHref}>
        {t('bank-verification:retry')}
      </Link>
      <Link className="btn btn--secondary" to={homeHref}>
        {t('bank-verification:result.home')}
      </Link>
    </div>
  );

  let body: React.ReactNode;
  if (!query) {
    const account = current.data?.account;
    body = account ? (
      <Card header={t('bank-verification:current.title')}>
        <VerifiedAccount account={account} />
      </Card>
    ) : current.isPending ? (
      <Spinner />
    ) : (
      <>
        <p className="notice notice--warning">{t('bank-verification:result.no_state')}</p>
        {tryAgain}
      </>
    );
  } else if (complete.isError) {
    body = (
      <>
        <div role="alert" className="notice notice--error">
          <p>{errorText(t, complete.error)}</p>
        </div>
        {tryAgain}
      </>
    );
  } else if (!outcome) {
    body = (
      <p role="status">
        <Spinner /> {t('bank-verification:result.checking')}
      </p>
    );
  } else if (outcome.status === 'confirmation_required' && outcome.account) {
    body = (
      <ConfirmAccountChange
        account={outcome.account}
        replaces={outcome.replaces ?? null}
        error={confirm.error}
        isPending={confirm.isPending}
        onConfirm={(code) => confirm.mutate({ state: query.state, code })}
      />
    );
  } else if (outcome.status === 'verified' && outcome.account) {
    body = (
      <Card header={t('bank-verification:result.verified_title')}>
        <p role="status" className="notice notice--success">
          {t(
            confirm.data ? 'bank-verification:result.changed_text' : 'bank-verification:result.verified_text',
          )}
        </p>
        <VerifiedAccount account={outcome.account} />
        <div className="bank-verification__actions">
          <Link className="btn btn--primary" to={homeHref}>
            {t('bank-verification:result.home')}
          </Link>
        </div>
      </Card>
    );
  } else {
    body = (
      <Card header={t('bank-verification:result.failed_title')}>
        <p role="alert" className="notice notice--error">
          {t(`bank-verification:failure.${outcome.reason ?? 'provider_error'}`)}
        </p>
        {tryAgain}
      </Card>
    );
  }

  return (
    <div className="page bank-verification">
      <h1 className="page__title">{t('bank-verification:title')}</h1>
      {body}
    </div>
  );
}
