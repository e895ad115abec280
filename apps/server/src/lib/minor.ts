import { ApiError } from './errors';

/**
 * An amount in minor units as a database driver hands it back, as an exact JavaScript number.
 * postgres.js returns bigint and numeric (every `sum()` of a bigint column) as strings; PGlite returns
 * bigint as a number when it is a safe integer and as a BigInt otherwise, numeric as a string. The
 * text is read as a BigInt, never through a float, and anything that is not a whole number within
 * ±Number.MAX_SAFE_INTEGER is refused with 422 `money.out_of_range` instead of being rounded
 * (docs/MONEY.md "Money bounds": with every invoice at most MAX_INVOICE_TOTAL_MINOR, no sum of an
 * issuer gets there; only rows written around the bounds can).
 * Null (the sum of no rows) is 0.
 */
export function minorOf(value: string | number | bigint | null | undefined): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw outOfRange(String(value));
    return value;
  }
  let exact: bigint;
  try {
    exact = BigInt(typeof value === 'string' ? value.trim() : value);
  } catch {
    throw outOfRange(String(value));
  }
  if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER))
    throw outOfRange(String(exact));
  return Number(exact);
}

/** `a + b` of amounts as the drivers return them, exactly, refused past the safe-integer range. */
export function addMinor(a: string | number | bigint | null, b: string | number | bigint | null): number {
  return minorOf(BigInt(minorOf(a)) + BigInt(minorOf(b)));
}

function outOfRange(value: string): ApiError {
  const error = new ApiError('money.out_of_range');
  error.message = `amount out of range: ${value}`;
  return error;
}
