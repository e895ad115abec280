import { z } from 'zod';

/**
 * Every error code the API answers with, as `{ code, issues? }`. The web translates the code under
 * the `errors` namespace; it never shows a server message (spec §8 texts live in packages/i18n).
 */
export const ERROR_CODES = [
  'auth.invalid_credentials',
  'auth.invalid_code',
  'auth.two_factor_token_expired',
  'auth.unauthorized',
  'auth.forbidden',
  'auth.setup_required',
  'auth.too_many_attempts',
  'password.user_not_found',
  'password.reset_not_found',
  'account.wrong_old_password',
  'account.invalid_new_password',
  'issuer.invalid',
  'twoFactor.invalid_code',
  'twoFactor.not_in_setup',
  'twoFactor.already_enabled',
  'twoFactor.not_enabled',
  'twoFactor.required',
  'group.not_found',
  'reports.wrong_date_range',
  'recipient.not_found',
  'recipient.in_use',
  'recipient.invalid',
  'article.not_found',
  'article.invalid',
  'article.duplicate_number',
  'article.invalid_vat_rate',
  'company.too_many_results',
  'invoices.not_found',
  'invoices.invalid',
  'invoices.duplicate_number',
  'invoices.duplicate_ocr',
  'invoices.invalid_transition',
  'invoices.invalid_currency',
  'invoices.invalid_vat_rate',
  'invoices.rot_rut_invalid',
  'idempotency.key_reused',
  'messages.not_found',
  'files.not_pdf',
  'files.too_large',
  'files.not_found',
  'files.required',
  'import.unreadable',
  'import.nothing_valid',
  'messages.invalid',
  'validation.invalid',
  'route.not_found',
  'server.unavailable',
  'server.internal',
] as const;

export const errorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/** One field problem: the path of the field and the rule's code (`validation.required`, ...). */
export const validationIssueSchema = z.object({
  path: z.string(),
  code: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const errorResponseSchema = z.object({
  code: errorCodeSchema,
  issues: z.array(validationIssueSchema).optional(),
  retryAfterSeconds: z.number().int().optional(),
  /** Facts the message shows, e.g. the existing invoice of a duplicate number (spec §5). */
  details: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** HTTP status of each code (spec §8 where it names one). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  'auth.invalid_credentials': 401,
  'auth.invalid_code': 401,
  'auth.two_factor_token_expired': 401,
  'auth.unauthorized': 401,
  'auth.forbidden': 403,
  'auth.setup_required': 403,
  'auth.too_many_attempts': 429,
  'password.user_not_found': 404,
  'password.reset_not_found': 404,
  'account.wrong_old_password': 412,
  'account.invalid_new_password': 400,
  'issuer.invalid': 400,
  'twoFactor.invalid_code': 400,
  'twoFactor.not_in_setup': 409,
  'twoFactor.already_enabled': 409,
  'twoFactor.not_enabled': 409,
  'twoFactor.required': 403,
  'group.not_found': 404,
  'reports.wrong_date_range': 400,
  'recipient.not_found': 404,
  'recipient.in_use': 409,
  'recipient.invalid': 400,
  'article.not_found': 404,
  'article.invalid': 400,
  'article.duplicate_number': 409,
  'article.invalid_vat_rate': 400,
  'company.too_many_results': 422,
  'invoices.not_found': 404,
  'invoices.invalid': 400,
  'invoices.duplicate_number': 409,
  'invoices.duplicate_ocr': 409,
  'invoices.invalid_transition': 409,
  'invoices.invalid_currency': 400,
  'invoices.invalid_vat_rate': 400,
  'invoices.rot_rut_invalid': 400,
  'idempotency.key_reused': 409,
  'messages.not_found': 404,
  'files.not_pdf': 415,
  'files.too_large': 413,
  'files.not_found': 404,
  'files.required': 400,
  'import.unreadable': 400,
  'import.nothing_valid': 400,
  'messages.invalid': 400,
  'validation.invalid': 400,
  'route.not_found': 404,
  'server.unavailable': 503,
  'server.internal': 500,
};
