/**
 * The test-only entry of the server package (`@portal/server/testing`): what other workspaces' tests
 * need to run the real server in their own process. App code never imports it.
 */
export { DEMO_PASSWORD, DEMO_USERS } from '../src/db/seed/demo';
export { setAbilities } from './support/abilities';
export { approveInstallmentPlan } from './support/installment-plans';
export { setCollectionBankgiro } from './support/issuers';
export * as moneyFlow from './support/money-flow-testing';
export { approvedPlan, runDailyOn } from './support/plans';
export {
  bearer,
  createTestApp,
  prepareSeededTemplate,
  START,
  type TestApp,
  type TestAppOptions,
} from './support/test-app';
