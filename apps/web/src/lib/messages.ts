import type { TFunction } from 'i18next';
import { ApiError } from './api-client';

/**
 * Turns a rule or error code into text. Field rule codes (`validation.required`) live in the
 * `validation` namespace, every other code (`reports.wrong_date_range`, `auth.invalid_credentials`)
 * under `errors` (spec §8: the UI translates codes, never server text). A screen's own rule that the
 * contract does not know names its key with the namespace (`articles:form.price_invalid`).
 */
export function translateCode(t: TFunction, code: string, params: Record<string, unknown> = {}): string {
  if (code.includes(':')) return t(code, params);
  if (code.startsWith('validation.') && code !== 'validation.invalid') {
    return t(`validation:${code.slice('validation.'.length)}`, params);
  }
  return t(`errors:${code}`, params);
}

/** Minutes to wait after a 429, rounded up; the throttle window when the server gave no figure. */
export function retryMinutes(error: ApiError, fallbackMinutes: number): number {
  return error.retryAfterSeconds ? Math.max(1, Math.ceil(error.retryAfterSeconds / 60)) : fallbackMinutes;
}

/** The translated text of any failure: an API error's code, or the generic message. */
export function errorText(t: TFunction, error: unknown, fallbackMinutes = 15): string {
  if (error instanceof ApiError) {
    return translateCode(t, error.code, { minutes: retryMinutes(error, fallbackMinutes) });
  }
  return t('errors:client.generic');
}
