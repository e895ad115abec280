/**
 * The money flow's services for other workspaces' tests (through `@portal/server/testing`): the web's
 * page tests make real payouts, payments and daily-job steps with them, as the back office would.
 */
export { DEMO_BANKGIROS } from '../../src/db/seed/demo';
export {
  importBgmaxFile,
  incomingPaymentsFile,
  resolveDeduction,
  runDailyJob,
  runPayout,
} from '../../src/modules/money/money.service';
export { deductionOfFile, sentInvoices, TEST_OPERATOR } from './money';
