import { ERROR_STATUS, type ErrorCode, type ValidationIssue } from '@portal/contracts';

/** An answer of the error catalogue: the handler throws it, the error handler writes `{ code, ... }`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: ValidationIssue[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Record<string, string | number> | undefined;

  constructor(
    code: ErrorCode,
    opts: {
      issues?: ValidationIssue[];
      retryAfterSeconds?: number;
      details?: Record<string, string | number>;
    } = {},
  ) {
    super(code);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.issues = opts.issues;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.details = opts.details;
  }
}
