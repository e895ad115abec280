/**
 * Phone numbers of the recipient register, stored in E.164 (`+46812345678`). A person may type the
 * national form of the recipient's country (`08-123 456 78`, `070-123 45 67`, `09 123 4567`,
 * `040 123 4567`) or the international one (`+46 8 123 456 78`, `0046 8 ...`, `+46 (0)8 ...`); spaces,
 * hyphens, dots, slashes and brackets are ignored. What cannot be a phone number is refused (null).
 *
 * The rule is deliberately small, not a numbering plan: per country the calling code, the trunk prefix
 * dropped from the national form and the length of the national significant number (NSN: the digits
 * after the calling code). Sweden's NSNs are 7–9 digits after the leading 0 (`8 123 456 78` is 9,
 * a small area code's `xx xx xx` 7) and Finland's 5–12 (its lengths vary the most); E.164 allows at most
 * 15 digits in all.
 */

interface CountryPlan {
  callingCode: string;
  /** The prefix of the national form, dropped for E.164 ('' where the national form has none). */
  trunk: string;
  minNsn: number;
  maxNsn: number;
}

/** The countries a recipient may have (contracts RECIPIENT_COUNTRIES). */
const PLANS: Record<string, CountryPlan> = {
  SE: { callingCode: '46', trunk: '0', minNsn: 7, maxNsn: 9 },
  FI: { callingCode: '358', trunk: '0', minNsn: 5, maxNsn: 12 },
  NO: { callingCode: '47', trunk: '', minNsn: 8, maxNsn: 8 },
  DK: { callingCode: '45', trunk: '', minNsn: 8, maxNsn: 8 },
  DE: { callingCode: '49', trunk: '0', minNsn: 6, maxNsn: 13 },
  GB: { callingCode: '44', trunk: '0', minNsn: 9, maxNsn: 10 },
  US: { callingCode: '1', trunk: '1', minNsn: 10, maxNsn: 10 },
};

const E164_MAX_DIGITS = 15;
/** Shortest international number we accept for a calling code we have no plan for. */
const E164_MIN_DIGITS = 8;

function planOfCallingCode(digits: string): CountryPlan | undefined {
  return Object.values(PLANS).find((p) => digits.startsWith(p.callingCode));
}

function fitsPlan(nsn: string, plan: CountryPlan): boolean {
  return nsn.length >= plan.minNsn && nsn.length <= plan.maxNsn && !nsn.startsWith('0');
}

/**
 * The E.164 form of a phone number typed for a recipient in `country` (ISO 3166 alpha-2), or null when
 * it cannot be a phone number. An empty text gives ''. A national form needs a country we know the
 * plan of; an international one is checked against the plan of its calling code when we have one.
 */
export function toE164PhoneNumber(text: string, country: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  // "+46 (0)8 ..." writes the trunk prefix in brackets for those who dial from inside the country.
  const compact = trimmed.replace(/\(0\)/g, '').replace(/[\s\-./()]/g, '');
  if (!/^(\+|00)?[0-9]+$/.test(compact)) return null;

  if (compact.startsWith('+') || compact.startsWith('00')) {
    const digits = compact.replace(/^(\+|00)/, '');
    if (digits.startsWith('0')) return null;
    const plan = planOfCallingCode(digits);
    if (plan) {
      let nsn = digits.slice(plan.callingCode.length);
      // "+46 08 ..." keeps the trunk prefix by mistake; the NSN never starts with it.
      if (plan.trunk !== '' && nsn.startsWith(plan.trunk) && !fitsPlan(nsn, plan)) nsn = nsn.slice(1);
      return fitsPlan(nsn, plan) ? `+${plan.callingCode}${nsn}` : null;
    }
    if (digits.length < E164_MIN_DIGITS || digits.length > E164_MAX_DIGITS) return null;
    return `+${digits}`;
  }

  const plan = PLANS[country];
  if (!plan) return null;
  let nsn = compact;
  if (plan.trunk !== '') {
    if (nsn.startsWith(plan.trunk)) nsn = nsn.slice(plan.trunk.length);
    // Sweden and Finland write the trunk 0 always; without it the number is not a national form.
    else if (plan.trunk === '0') return null;
  }
  if (!fitsPlan(nsn, plan)) return null;
  const e164 = `+${plan.callingCode}${nsn}`;
  return e164.length - 1 <= E164_MAX_DIGITS ? e164 : null;
}

/** True when `text` is empty or a phone number of a recipient in `country` (see toE164PhoneNumber). */
export function isValidPhoneNumber(text: string, country: string): boolean {
  return toE164PhoneNumber(text, country) !== null;
}
