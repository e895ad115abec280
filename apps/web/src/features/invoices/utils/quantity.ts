import { type Language, QUANTITY_SCALE } from '@portal/contracts';

/** Decimals a quantity may have: thousandths (QUANTITY_SCALE), e.g. 1,125 h. */
const QUANTITY_DECIMALS = 3;
/** The largest quantity the contract takes, in thousandths. */
const MAX_QUANTITY_MILLI = 1_000_000_000;

export type QuantityParseError = 'empty' | 'invalid' | 'too_many_decimals' | 'out_of_range';
export type QuantityParseResult = { ok: true; milli: number } | { ok: false; error: QuantityParseError };

/**
 * Reads a typed quantity into thousandths exactly (the digits are joined as text, never multiplied
 * as a float): "1,5" → 1500 in sv-SE and fi-FI, "1.5" → 1500 everywhere, "2" → 2000. The separators
 * follow the money parser: in en-US a lone comma groups thousands ("1,500" is 1500 units); spaces
 * group thousands in every language. More than three decimals is refused unless the extra ones are
 * zeros; a sign is kept, so that the contract's own rule refuses a quantity of zero or less.
 */
export function parseQuantity(text: string, language: Language): QuantityParseResult {
  let s = text.replace(/\s/g, ' ').trim();
  if (s === '') return { ok: false, error: 'empty' };
  let negative = false;
  if (/^[-\u2212\u2013+]/.test(s)) {
    negative = !s.startsWith('+');
    s = s.slice(1).trim();
  }
  if (!/^[0-9 .,]*[0-9][0-9 .,]*$/.test(s)) return { ok: false, error: 'invalid' };
  const dots = s.split('.').length - 1;
  const commas = s.split(',').length - 1;
  let decimal: '.' | ',' | null = null;
  if (dots > 0 && commas > 0) decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
  else if (dots === 1) decimal = '.';
  else if (commas === 1 && language !== 'en-US') decimal = ',';
  const at = decimal === null ? -1 : s.lastIndexOf(decimal);
  const integerText = at === -1 ? s : s.slice(0, at);
  const fractionText = at === -1 ? '' : s.slice(at + 1);
  if (at !== -1 && !/^[0-9]+$/.test(fractionText)) return { ok: false, error: 'invalid' };
  const grouping = decimal === ',' ? '.' : ',';
  const integerDigits = groupedDigits(integerText, grouping);
  if (integerDigits === null) return { ok: false, error: 'invalid' };
  if (/[^0]/.test(fractionText.slice(QUANTITY_DECIMALS))) return { ok: false, error: 'too_many_decimals' };
  const digits = `${integerDigits}${fractionText.slice(0, QUANTITY_DECIMALS).padEnd(QUANTITY_DECIMALS, '0')}`;
  const trimmed = digits.replace(/^0+/, '');
  if (trimmed.length > 15) return { ok: false, error: 'out_of_range' };
  const magnitude = trimmed === '' ? 0 : Number(trimmed);
  if (magnitude > MAX_QUANTITY_MILLI) return { ok: false, error: 'out_of_range' };
  return { ok: true, milli: negative && magnitude !== 0 ? -magnitude : magnitude };
}

// Plain digits, or groups of 1-3 then exactly 3 digits joined by spaces or by the grouping mark (not
// both). An empty integer part (",5") is zero.
function groupedDigits(text: string, grouping: '.' | ','): string | null {
  if (text === '') return '0';
  if (/^[0-9]+$/.test(text)) return text;
  const bySpace = text.includes(' ');
  if (bySpace === text.includes(grouping)) return null;
  const groups = text.split(bySpace ? ' ' : grouping);
  const [head, ...tail] = groups;
  if (head === undefined || !/^[0-9]{1,3}$/.test(head)) return null;
  if (!tail.every((g) => /^[0-9]{3}$/.test(g))) return null;
  return groups.join('');
}

/**
 * Thousandths as the user would type them, without grouping and without trailing zeros: 1500 →
 * "1,5" (sv-SE, fi-FI) or "1.5" (en-US); 2000 → "2". `parseQuantity` reads it back to the same value.
 */
export function formatQuantity(milli: number, language: Language): string {
  const abs = Math.abs(milli);
  const fraction = abs % QUANTITY_SCALE;
  const whole = (abs - fraction) / QUANTITY_SCALE;
  const decimalMark = language === 'en-US' ? '.' : ',';
  const fractionText = String(fraction).padStart(QUANTITY_DECIMALS, '0').replace(/0+$/, '');
  const sign = milli < 0 ? '-' : '';
  return `${sign}${whole}${fractionText ? `${decimalMark}${fractionText}` : ''}`;
}
