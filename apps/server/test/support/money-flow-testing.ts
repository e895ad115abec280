/**
 * The money flow's services for other workspaces' tests (through `@portal/server/testing`): the web's
 * page tests make real payouts, payments and daily-job steps with them, as the back office would.
 */
export { DEMO_BANKGIROS } from '../../src/db/seed/demo';
export { runDailyJob } from '../../src/services/daily-job';
export { incomingPaymentsFile } from '../../src/services/incoming-payments-file';
export { importBgmaxFile } from '../../src/services/payment-import';
export { runPayout } from '../../src/services/payouts';
export { sentInvoices, TEST_OPERATOR } from './money';
