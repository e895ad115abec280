import { errorResponseSchema } from '@portal/contracts';

/** What the back-office CLI's commands share: exit codes, output, and the JSON calls of the back-office API. */

export const EXIT = { ok: 0, refused: 1, usage: 2, auth: 3, unreachable: 4 } as const;

/** Where the CLI writes; a test passes its own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The `--page` and `--page-size` options of a list command (1 and 25 when left out); backoffice.ts refuses any out of range. */
export function pageOptions(values: Record<string, unknown>): { page: number; pageSize: number } {
  return { page: Number(values.page ?? 1), pageSize: Number(values['page-size'] ?? 25) };
}

/** A plain text table: one header line, then one line per row, columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** A JSON call of the back-office API; a network failure or a non-JSON answer is a CliError. */
export async function call(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  let res: Response;
  const raw = body instanceof Uint8Array;
  try {
    res = await fetch(new URL(path, base), {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined
          ? { 'content-type': raw ? 'application/octet-stream' : 'application/json' }
          : {}),
      },
      ...(body !== undefined ? { body: raw ? body : JSON.stringify(body) } : {}),
    });
  } catch (err) {
    const failed = err as {
      message: string;
      cause?: { code?: string; message?: string; errors?: { code?: string }[] };
    };
    const reason =
      failed.cause?.code ?? failed.cause?.errors?.[0]?.code ?? failed.cause?.message ?? failed.message;
    throw new CliError(`cannot reach ${base} (${reason})`, EXIT.unreachable);
  }
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    throw new CliError(`unexpected answer from ${base}: HTTP ${res.status}`, EXIT.unreachable);
  }
}

/** The error code of an error answer, for the message and the exit code. */
export function refusal(status: number, json: unknown): CliError {
  const parsed = errorResponseSchema.safeParse(json);
  const code = parsed.success ? parsed.data.code : 'unknown';
  const hints: Record<string, string> = {
    'invoices.invalid_transition': 'the invoice is not awaiting a credit decision (already decided?)',
    'invoices.not_found': 'no invoice with that id',
    'issuer.not_found': 'no issuer with that id',
    'payments.deduction':
      'a TK21 deduction is money taken off a deposit, not a payment: it is never assigned',
    'payments.information': 'a zero amount is kept as information: there is nothing to assign',
    'auth.invalid_credentials': 'wrong operator username or password',
    'auth.too_many_attempts': 'too many failed sign-ins; wait and try again',
    'auth.unauthorized': 'the session was refused',
    'auth.invalid_code': 'wrong or already used two-factor code',
    'auth.two_factor_token_expired': 'the two-factor step ran out; sign in again',
    'auth.setup_required': 'this server requires two-factor for operators: npm run operators -- enable-2fa',
  };
  const retry =
    parsed.success && parsed.data.retryAfterSeconds !== undefined
      ? ` (retry after ${parsed.data.retryAfterSeconds} s)`
      : '';
  const text = `HTTP ${status} ${code}${hints[code] ? `: ${hints[code]}` : ''}${retry}`;
  if (status >= 500) return new CliError(text, EXIT.unreachable);
  if (code.startsWith('auth.')) return new CliError(text, EXIT.auth);
  if (status === 400) return new CliError(text, EXIT.usage);
  return new CliError(text, EXIT.refused);
}
