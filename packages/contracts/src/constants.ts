/** Languages of the portal (spec §9). sv-SE is the default and the fallback. */
export const LANGUAGES = ['sv-SE', 'en-US', 'fi-FI'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'sv-SE';

/** Length of a TOTP code (spec §9). */
export const TWO_FACTOR_CODE_LENGTH = 6;
/** Minimum password length in Unicode code points (spec §9). */
export const PASSWORD_MIN_LENGTH = 8;
/** Upper bound so that a huge body cannot make argon2 hash megabytes. */
export const PASSWORD_MAX_LENGTH = 128;

/** Issuer form limits in code points (spec §5, §9). */
export const ISSUER_LIMITS = {
  name: 20,
  email: 45,
  vat: 25,
  telephone: 20,
  address: 45,
  city: 45,
  zipcode: 10,
} as const;

/** Recipient name limit in code points (spec §9). */
export const RECIPIENT_NAME_MAX = 45;

/** Default range of the regress report: the last 30 days up to today (spec §9). */
export const REGRESS_DEFAULT_RANGE_DAYS = 30;
/** Date format of every date in a call (spec §9). */
export const DATE_FORMAT = 'YYYY-MM-DD';

/** A lazily loaded route chunk fails after this many milliseconds (spec §9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Default icon button size in px (spec §9). */
export const ICON_BUTTON_DEFAULT_SIZE = 14;
/** Spinner sizes in px (spec §9). */
export const SPINNER_SIZE = { large: 50, small: 30 } as const;

/** A session lives this long after its last use (sliding expiry). */
export const SESSION_IDLE_MINUTES = 60;
/** A session is never renewed past this age, however active. */
export const SESSION_ABSOLUTE_HOURS = 12;
/** The token of the first sign-in step may only verify a code, for this long. */
export const TWO_FACTOR_STEP_MINUTES = 5;
/** The first-step token dies after this many wrong codes. */
export const TWO_FACTOR_STEP_MAX_ATTEMPTS = 5;
/** Reset links a user may be sent within the throttle window. */
export const PASSWORD_RESET_MAX_PER_WINDOW = 3;
/** A password reset link is valid this long, once. */
export const PASSWORD_RESET_MINUTES = 60;

/** Failed sign-ins allowed per username within the window before 429. */
export const LOGIN_MAX_FAILURES_PER_USERNAME = 5;
/** Failed sign-ins allowed per client IP within the window before 429. */
export const LOGIN_MAX_FAILURES_PER_IP = 20;
/** Window of the sign-in throttle in minutes. */
export const LOGIN_THROTTLE_WINDOW_MINUTES = 15;

/** Message type counted in the header's unread badge (spec §3). */
export const COUNTED_MESSAGE_TYPE = '4';

/**
 * Field names that form-submit tracking never sends (spec §5). Compared after lower-casing and
 * removing spaces, underscores and dashes, so `new_password` and `newPassword` match too.
 */
export const ANALYTICS_SENSITIVE_FIELDS = [
  'password',
  'new password',
  'current password',
  'confirm password',
  'password confirmation',
  'ssn',
  'personal id',
] as const;

/** The marker a not-yet-configured analytics key contains; such a key never initialises analytics. */
export const ANALYTICS_KEY_PLACEHOLDER = '__POSTHOG_KEY__';
/** EU host of the analytics provider (spec §1, §7). */
export const ANALYTICS_EU_HOST = 'https://eu.i.posthog.com';

/**
 * Bounds of an installment plan (issue #14): 1 to `MAX_PLAN_INSTALLMENTS` (120) monthly installments
 * and a total of at most `MAX_PLAN_TOTAL_MINOR`, the maximum of one invoice's total, since each
 * installment becomes an invoice. Defined beside the schedule they bound (`@portal/domain/installment-schedule`).
 */
export { MAX_PLAN_INSTALLMENTS, MAX_PLAN_TOTAL_MINOR } from '@portal/domain/installment-schedule';
