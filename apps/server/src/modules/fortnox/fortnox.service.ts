/**
 * Fortnox business invoices (issue #13, spec §1, §2, §6; shared/domain/fortnox-api.md). The rules:
 * only a user with a `fortnoxSetting` reaches any of it; the state of an authorization is random,
 * stored as its hash, bound to the user, short-lived and used once; the connected Fortnox company must
 * be the issuer itself (its organisation number); tokens are sealed at rest and the refresh token is
 * stored again at every renewal (Fortnox rotates it); a refresh token Fortnox refuses ends the
 * connection, so the page asks to connect again. A Fortnox invoice is taken over at most once
 * (company and document number), exactly as Fortnox has it, with its PDF.
 */
/**
 * The Fortnox module's service: what the routes, the app's wiring and other modules use. The work is in
 * three files: fortnox-connection.ts (connect, renew, disconnect), fortnox-invoices.ts (the business
 * invoices and taking them over) and fortnox-payments.ts (payments registered back in Fortnox).
 */

export {
  type Caller,
  completeFortnoxConnection,
  disconnectFortnox,
  getFortnoxConnection,
  REFRESH_EVERY_MS,
  refreshFortnoxConnections,
  startFortnoxConnection,
} from './fortnox-connection';
export { listFortnoxInvoices, takeOverFortnoxInvoices } from './fortnox-invoices';
export {
  minorToDecimal,
  PAYMENT_CLAIM_MS,
  queueFortnoxPayments,
  registerFortnoxPayments,
} from './fortnox-payments';
