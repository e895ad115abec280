import { ApiError } from '../../lib/errors';

/** An issuer whose part of a batch failed: nothing of it was written, the others went through. */
export interface IssuerFailure {
  issuerId: string;
  /** An error code of the contracts (`money.out_of_range` for an amount past the safe range). */
  code: string;
  /** The error's own message, for the log only (never in an answer). */
  message: string;
}

/** The code an issuer's failed part of a batch is reported with. */
export function failureOf(issuerId: string, error: unknown): IssuerFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError) return { issuerId, code: error.code, message };
  if (error instanceof RangeError) return { issuerId, code: 'money.out_of_range', message };
  return { issuerId, code: 'server.internal', message };
}
