import type { CompleteBankVerificationBody } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { VerificationResultPage } from '../../features/bank-verification/components/verification-result-page';
import { selfKeys } from '../../lib/self';

/** The provider's query as the callback call takes it; null without a state (the server checks the rest). */
function callbackQuery(params: URLSearchParams): CompleteBankVerificationBody | null {
  const state = params.get('state');
  if (!state) return null;
  const optional = (name: 'session_id' | 'account_verification_report_id' | 'error') => {
    const value = params.get(name);
    return value === null ? {} : { [name]: value };
  };
  return {
    state,
    ...optional('session_id'),
    ...optional('account_verification_report_id'),
    ...optional('error'),
  };
}

/**
 * `/verify-bank-account-success` (spec §2): where the provider sends the browser back. A page without
 * a state shows the current account.
 */
export default function VerifyBankAccountSuccessRoute() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const search = params.toString();
  const query = useMemo(() => callbackQuery(new URLSearchParams(search)), [search]);
  return (
    <VerificationResultPage
      query={query}
      verifyHref={paths.verifyBankAccount.getHref()}
      homeHref={paths.home.getHref()}
      onVerified={() => {
        void queryClient.invalidateQueries({ queryKey: selfKeys.all });
      }}
    />
  );
}
