import { TransferCostsPage } from '../../features/transfer-costs/components/transfer-costs-page';

/** `/transfercosts` (spec §2): the issuer's settlements, their rows and BGMAX files. */
export default function TransferCostsRoute() {
  return <TransferCostsPage />;
}
