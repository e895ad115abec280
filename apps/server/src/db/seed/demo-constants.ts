/** The demo's fixed facts, which the seed, the server's start-up banner and the tests share. */

export const DEMO_PASSWORD = 'Portal-demo-1';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export const DEMO_GROUP = 'acme';

/** The demo sign-ins, printed when the embedded server starts and listed in the README. */
export const DEMO_USERS = [
  { username: 'demo', state: 'every ability; issuer Demo Bygg AB' },
  { username: 'demo-2fa', state: `two-factor on, TOTP secret ${DEMO_TOTP_SECRET}` },
  { username: 'demo-new', state: 'initial password and forced two-factor: the blocking overlay' },
  { username: 'demo-limited', state: 'only limited_invoices and limited_send_invoice' },
  { username: 'demo-unverified', state: 'bank account not verified: the verification banner' },
  { username: 'demo-other', state: 'another issuer, Annan Firma Oy (Finland), no group' },
  { username: 'demo-debt', state: 'issuer Sjöberg Snickeri AB: a debt claimed and paid (transfer costs)' },
] as const;

/** The demo back-office operator (docs/BACKOFFICE.md); same password as the demo users. */
export const DEMO_OPERATOR = 'operator';

/**
 * The demo issuers' collection bankgiro numbers (7 digits with a Luhn check digit): the recipients pay
 * their invoices there and the BGMAX import matches a deposit to its issuer by it (docs/MONEY.md).
 */
export const DEMO_BANKGIROS = {
  bygg: '5050109',
  unverified: '5050117',
  other: '5050125',
  debt: '5050133',
} as const;

/** Demo Bygg AB, the issuer of the `demo` user, as the seed writes it. */
export const DEMO_BYGG_ISSUER = {
  name: 'Demo Bygg AB',
  email: 'ekonomi@demobygg.se',
  organizationNo: '556036-0793',
  vat: 'SE556036079301',
  telephone: '08-123 456 78',
  address1: 'Byggvägen 12',
  city: 'Stockholm',
  zipcode: '114 35',
  country: 'SE',
  bankAccountVerified: true,
  collectionBankgiro: DEMO_BANKGIROS.bygg,
} as const;
