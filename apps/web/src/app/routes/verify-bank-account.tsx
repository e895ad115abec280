import { VerifyBankAccountPage } from '../../features/bank-verification/components/verify-bank-account-page';
import { useSelf } from '../../lib/self';

export { default as VerifyBankAccountSuccessRoute } from './verify-bank-account-success';

/** `/verify-bank-account` (spec §2, ability limited_verify_bank_account): the issuer's banks. */
export default function VerifyBankAccountRoute() {
  const { data } = useSelf();
  if (!data) return null;
  return <VerifyBankAccountPage companyName={data.issuer.name} hasTwoFactor={data.twoFactorEnabled} />;
}
