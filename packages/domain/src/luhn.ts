/**
 * Luhn (modulus 10) check digit, as used by Swedish organisation numbers, personnummer, OCR references
 * and bankgiro numbers (shared/domain/references-and-ids.md §1).
 */

function assertDigits(value: string): void {
  if (!/^[0-9]+$/.test(value)) throw new RangeError(`not a digit string: ${JSON.stringify(value)}`);
}

/**
 * The check digit for `base`: weights 2, 1, 2, … from the rightmost digit, products of 10 or more
 * count as their digit sum, check digit = (10 − sum mod 10) mod 10. Throws on a non-digit string.
 */
export function luhnCheckDigit(base: string): number {
  assertDigits(base);
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    const digit = base.charCodeAt(base.length - 1 - i) - 48;
    const product = i % 2 === 0 ? digit * 2 : digit;
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when the whole digit string (base + check digit) passes Luhn; false for empty or non-digits. */
export function isLuhnValid(value: string): boolean {
  if (!/^[0-9]{2,}$/.test(value)) return false;
  return luhnCheckDigit(value.slice(0, -1)) === Number(value.slice(-1));
}
