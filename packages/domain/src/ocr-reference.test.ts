import { describe, expect, it } from 'vitest';
import {
  createFinnishReference,
  createOcrReference,
  createRfReference,
  formatFinnishReference,
  formatRfReference,
  isValidFinnishReference,
  isValidOcrReference,
  isValidRfReference,
  normalizeOcrReference,
  ocrReferenceBase,
} from './ocr-reference';
import { seededRandom } from './test-support/seeded-random';

// Worked examples from shared/domain/references-and-ids.md §2, §4.1 and §4.2.

function randomDigits(random: ReturnType<typeof seededRandom>, length: number): string {
  return Array.from({ length }, () => String(random.int(0, 9))).join('');
}

function changeDigit(value: string, index: number, by: number): string {
  const digit = (Number(value[index]) + by) % 10;
  return value.slice(0, index) + String(digit) + value.slice(index + 1);
}

describe('Swedish OCR reference', () => {
  it.each([
    ['12345', '123455', '1234574'],
    ['1234567890', '12345678903', '123456789023'],
    ['00720191224200', '007201912242002', '0072019122420063'],
    ['123', '1230', '12351'],
  ])('base %s → %s (check digit only), %s (with length digit)', (base, checkOnly, withLength) => {
    expect(createOcrReference(base, { lengthDigit: false })).toBe(checkOnly);
    expect(createOcrReference(base, { lengthDigit: true })).toBe(withLength);
    expect(createOcrReference(base)).toBe(withLength);
    expect(isValidOcrReference(checkOnly)).toBe(true);
    expect(isValidOcrReference(withLength, { lengthDigit: true })).toBe(true);
  });

  it('takes a number as the base', () => {
    expect(createOcrReference(12345)).toBe('1234574');
    expect(createOcrReference(0, { lengthDigit: false })).toBe('00');
    expect(createOcrReference(Number.MAX_SAFE_INTEGER)).toMatch(/^9007199254740991[0-9]{2}$/);
  });

  it('throws on a bad base or a reference longer than 25 digits', () => {
    expect(() => createOcrReference(-1)).toThrow(RangeError);
    expect(() => createOcrReference(1.5)).toThrow(RangeError);
    expect(() => createOcrReference(Number.NaN)).toThrow(RangeError);
    expect(() => createOcrReference('12a')).toThrow(RangeError);
    expect(() => createOcrReference('')).toThrow(RangeError);
    expect(createOcrReference('1'.repeat(23))).toHaveLength(25);
    expect(() => createOcrReference('1'.repeat(24))).toThrow(RangeError);
    expect(createOcrReference('1'.repeat(24), { lengthDigit: false })).toHaveLength(25);
    expect(() => createOcrReference('1'.repeat(25), { lengthDigit: false })).toThrow(RangeError);
  });

  // Valid with both checks: the zerodep/ocrgenerator suites (run through Bankgirot's script) and
  // BGMAX samples.
  it.each([
    '18108401345678778',
    '18196701475307475',
    '1018966492531',
    '1019080881039',
    '03368912618',
    '1202951008',
    '1636976',
    '655969',
    '524967',
    '7495575',
  ])('%s passes the check digit and the length digit', (ref) => {
    expect(isValidOcrReference(ref)).toBe(true);
    expect(isValidOcrReference(ref, { lengthDigit: true })).toBe(true);
  });

  it.each(['8988777', '89853'])('%s fails the check digit (BGMAX sample)', (ref) => {
    expect(isValidOcrReference(ref)).toBe(false);
    expect(isValidOcrReference(ref, { lengthDigit: true })).toBe(false);
  });

  it('657775 passes a check-digit-only agreement but not a length-digit one', () => {
    expect(isValidOcrReference('657775')).toBe(true);
    expect(isValidOcrReference('657775', { lengthDigit: true })).toBe(false);
  });

  it('checks fixed lengths when asked', () => {
    expect(isValidOcrReference('1234574', { lengths: [7] })).toBe(true);
    expect(isValidOcrReference('1234574', { lengths: [8, 10] })).toBe(false);
    expect(isValidOcrReference('1234574', { lengthDigit: true, lengths: [6, 7] })).toBe(true);
  });

  it('ignores spaces, hyphens and + and refuses other input', () => {
    expect(normalizeOcrReference(' 1234 574+')).toBe('1234574');
    expect(isValidOcrReference('1234 574')).toBe(true);
    expect(isValidOcrReference('12345-74')).toBe(true);
    expect(isValidOcrReference('')).toBe(false);
    expect(isValidOcrReference('0')).toBe(false);
    expect(isValidOcrReference('12345a74')).toBe(false);
    expect(isValidOcrReference(`${createOcrReference('1'.repeat(23))}0`)).toBe(false);
  });

  it('reads the base back', () => {
    expect(ocrReferenceBase('1234574')).toBe('12345');
    expect(ocrReferenceBase('0072019122420063')).toBe('00720191224200');
    expect(ocrReferenceBase('123455', { lengthDigit: false })).toBe('12345');
    expect(ocrReferenceBase('123455')).toBeNull();
    expect(ocrReferenceBase('1234575')).toBeNull();
  });

  it('round-trips seeded bases and catches every single-digit error (2000 cases)', () => {
    const random = seededRandom(11649);
    for (let i = 0; i < 2000; i++) {
      const lengthDigit = random.next() < 0.5;
      const base = randomDigits(random, random.int(1, lengthDigit ? 23 : 24));
      const ref = createOcrReference(base, { lengthDigit });
      expect(isValidOcrReference(ref, { lengthDigit })).toBe(true);
      expect(ocrReferenceBase(ref, { lengthDigit })).toBe(base);
      const wrong = changeDigit(ref, random.int(0, ref.length - 1), random.int(1, 9));
      expect(isValidOcrReference(wrong)).toBe(false);
    }
  });
});

describe('Finnish reference number (viitenumero)', () => {
  it.each([
    ['12345', '123453'],
    ['123456', '1234561'],
    ['100', '1009'],
    ['1234567123456781234', '12345671234567812346'],
    ['000100', '1009'],
  ])('base %s → %s', (base, ref) => {
    expect(createFinnishReference(base)).toBe(ref);
    expect(isValidFinnishReference(ref)).toBe(true);
  });

  it('takes a number as the base', () => {
    expect(createFinnishReference(12345)).toBe('123453');
  });

  it('throws on a base outside 3-19 digits', () => {
    expect(() => createFinnishReference('12')).toThrow(RangeError);
    expect(() => createFinnishReference('0012')).toThrow(RangeError);
    expect(() => createFinnishReference('1'.repeat(20))).toThrow(RangeError);
    expect(() => createFinnishReference('12a45')).toThrow(RangeError);
  });

  it.each(['123453', '12 34561', '00000000000001234561', '1009', '12345 67123 45678 12346'])(
    'accepts %j',
    (ref) => {
      expect(isValidFinnishReference(ref)).toBe(true);
    },
  );

  it.each(['123454', '1008', '107', '12', '', '000000000000001234561', '12345a', 'RF81123453'])(
    'refuses %j',
    (ref) => {
      expect(isValidFinnishReference(ref)).toBe(false);
    },
  );

  it('prints groups of five from the right without leading zeros', () => {
    expect(formatFinnishReference('1234561')).toBe('12 34561');
    expect(formatFinnishReference('00000000000001234561')).toBe('12 34561');
    expect(formatFinnishReference('12345671234567812346')).toBe('12345 67123 45678 12346');
    expect(formatFinnishReference('1009')).toBe('1009');
    expect(formatFinnishReference('12345 3')).toBe('1 23453');
    expect(() => formatFinnishReference('123454')).toThrow(RangeError);
  });

  it('round-trips seeded bases and catches every single-digit error (2000 cases)', () => {
    const random = seededRandom(731);
    for (let i = 0; i < 2000; i++) {
      const base = String(random.int(1, 9)) + randomDigits(random, random.int(2, 18));
      const ref = createFinnishReference(base);
      expect(isValidFinnishReference(ref)).toBe(true);
      expect(isValidFinnishReference(formatFinnishReference(ref))).toBe(true);
      // Changing the first digit to 0 would only drop a leading zero; change another digit.
      const wrong = changeDigit(ref, random.int(1, ref.length - 1), random.int(1, 9));
      expect(isValidFinnishReference(wrong)).toBe(false);
    }
  });
});

describe('RF creditor reference (ISO 11649)', () => {
  it.each([
    'RF18539007547034',
    'RF451234512345',
    'RF471234567890',
    'RF68AB2G5',
    'RF96TU06FX',
    'RF81123453',
    'rf18 5390 0754 7034',
  ])('accepts %j', (ref) => {
    expect(isValidRfReference(ref)).toBe(true);
  });

  it.each([
    'RF19GAX8WS5JYOOUJ87',
    'RF18539007547035',
    'RF17539007547034',
    'RF18',
    'RF1',
    'XX18539007547034',
    'RF18-5390-0754-7034',
    `RF00${'1'.repeat(22)}`,
    '',
  ])('refuses %j', (ref) => {
    expect(isValidRfReference(ref)).toBe(false);
  });

  it.each([
    ['539007547034', 'RF18539007547034'],
    ['1234512345', 'RF451234512345'],
    ['1234567890', 'RF471234567890'],
    ['AB2G5', 'RF68AB2G5'],
    ['tu06fx', 'RF96TU06FX'],
    ['123453', 'RF81123453'],
    ['5390 0754 7034', 'RF18539007547034'],
  ])('creates from %j → %s', (payload, ref) => {
    expect(createRfReference(payload)).toBe(ref);
  });

  it('builds on the Finnish national reference', () => {
    expect(createRfReference(createFinnishReference(12345))).toBe('RF81123453');
  });

  it('throws on a payload that is empty, too long or not A-Z/0-9', () => {
    expect(() => createRfReference('')).toThrow(RangeError);
    expect(() => createRfReference('1'.repeat(22))).toThrow(RangeError);
    expect(() => createRfReference('ÅÄÖ')).toThrow(RangeError);
    expect(() => createRfReference('AB-12')).toThrow(RangeError);
    expect(createRfReference('1'.repeat(21))).toHaveLength(25);
  });

  it('prints groups of four', () => {
    expect(formatRfReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
    expect(formatRfReference('rf68ab2g5')).toBe('RF68 AB2G 5');
    expect(() => formatRfReference('RF19GAX8WS5JYOOUJ87')).toThrow(RangeError);
  });

  it('round-trips seeded payloads; check digits stay in 02-98; digit changes are caught (2000 cases)', () => {
    const random = seededRandom(97);
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let i = 0; i < 2000; i++) {
      const payload = Array.from({ length: random.int(1, 21) }, () =>
        alphabet.charAt(random.int(0, 35)),
      ).join('');
      const ref = createRfReference(payload);
      expect(isValidRfReference(ref)).toBe(true);
      expect(isValidRfReference(formatRfReference(ref).toLowerCase())).toBe(true);
      const check = Number(ref.slice(2, 4));
      expect(check).toBeGreaterThanOrEqual(2);
      expect(check).toBeLessThanOrEqual(98);
      const digitAt = [...ref].findIndex((c, j) => j >= 2 && /[0-9]/.test(c));
      expect(isValidRfReference(changeDigit(ref, digitAt, random.int(1, 9)))).toBe(false);
    }
  });
});
