import { describe, expect, it } from 'vitest';
import { addDays } from './calendar-date';
import { luhnCheckDigit } from './luhn';
import {
  formatPersonalNumber,
  isValidPersonalNumber,
  parsePersonalNumber,
  toTenDigitForm,
} from './personal-number';
import { seededRandom } from './test-support/seeded-random';

const TODAY = '2025-06-01';

// YYMMDDNNN plus its Luhn check digit, in the 10-digit form with `separator`.
function tenDigits(nine: string, separator = '-'): string {
  return `${nine.slice(0, 6)}${separator}${nine.slice(6)}${luhnCheckDigit(nine)}`;
}

describe('parsePersonalNumber', () => {
  // Valid examples from shared/domain/references-and-ids.md §3.2.
  it.each([
    ['811228-9874', '198112289874', '1981-12-28', false],
    ['001219-3421', '200012193421', '2000-12-19', false],
    ['121212-1212', '201212121212', '2012-12-12', false],
    ['701063-2391', '197010632391', '1970-10-03', true],
    ['8112289874', '198112289874', '1981-12-28', false],
    ['19811228-9874', '198112289874', '1981-12-28', false],
    ['198112289874', '198112289874', '1981-12-28', false],
    [' 811228 - 9874 ', '198112289874', '1981-12-28', false],
    ['121212+1212', '191212121212', '1912-12-12', false],
  ])('%j → %s, born %s', (value, digits, birthDate, isCoordinationNumber) => {
    expect(parsePersonalNumber(value, TODAY)).toEqual({ digits, birthDate, isCoordinationNumber });
  });

  it.each([
    ['811228-9875', 'wrong check digit'],
    ['556036-0793', 'an organisation number (month 60)'],
    ['19811228+9874', '+ in the 12-digit form'],
    ['17811228-9874', 'century 17'],
    ['81122-89874', 'separator in the wrong place'],
    ['811228/9874', 'unknown separator'],
    ['81122898741', '11 digits'],
    ['', 'empty'],
  ])('refuses %j (%s)', (value) => {
    expect(parsePersonalNumber(value, TODAY)).toBeNull();
    expect(isValidPersonalNumber(value)).toBe(false);
  });

  it.each([
    ['811328', 'month 13'],
    ['810028', 'month 00'],
    ['811200', 'day 00'],
    ['811232', 'day 32'],
    ['811260', 'day 60'],
    ['811292', 'day 92'],
    ['810431', '31 April'],
    ['810491', '31 April as a samordningsnummer'],
    ['010229', '29 February in neither 1901 nor 2001'],
  ])('refuses date part %s (%s) even with a correct check digit', (date) => {
    const value = tenDigits(`${date}123`);
    expect(parsePersonalNumber(value, TODAY)).toBeNull();
    expect(isValidPersonalNumber(value)).toBe(false);
  });

  it('accepts 29 February only in a leap year of the resolved century', () => {
    const minus = tenDigits('000229123');
    const plus = tenDigits('000229123', '+');
    expect(parsePersonalNumber(minus, TODAY)?.birthDate).toBe('2000-02-29');
    expect(parsePersonalNumber(plus, TODAY)).toBeNull(); // 1900 is not a leap year
    expect(isValidPersonalNumber(minus)).toBe(true);
    expect(parsePersonalNumber(`19${minus.replace('-', '')}`, TODAY)).toBeNull();
    expect(parsePersonalNumber(tenDigits('000289123'), TODAY)?.isCoordinationNumber).toBe(true);
  });

  it('picks the century from today for the 10-digit form', () => {
    // Born later this year cannot be this year: 100 years earlier.
    expect(parsePersonalNumber(tenDigits('250701123'), TODAY)?.birthDate).toBe('1925-07-01');
    expect(parsePersonalNumber(tenDigits('250601123'), TODAY)?.birthDate).toBe('2025-06-01');
    expect(parsePersonalNumber(tenDigits('250531123'), TODAY)?.birthDate).toBe('2025-05-31');
    // `+` is used from the year the person turns 100, also before the birthday.
    expect(parsePersonalNumber(tenDigits('251201123', '+'), '2025-03-01')?.birthDate).toBe('1925-12-01');
    expect(parsePersonalNumber(tenDigits('260101123', '+'), TODAY)?.birthDate).toBe('1826-01-01');
    expect(parsePersonalNumber(tenDigits('991231123'), '2000-01-01')?.birthDate).toBe('1999-12-31');
  });

  it('refuses a 12-digit number born after today, unless no today is given', () => {
    const value = `2099${tenDigits('991212123').slice(2)}`;
    expect(parsePersonalNumber(value, TODAY)).toBeNull();
    expect(isValidPersonalNumber(value, TODAY)).toBe(false);
    expect(isValidPersonalNumber(value)).toBe(true);
  });

  it('throws on an invalid today', () => {
    expect(() => parsePersonalNumber('811228-9874', '2025-13-01')).toThrow(RangeError);
    expect(() =>
      toTenDigitForm({ digits: '198112289874', birthDate: '1981-12-28', isCoordinationNumber: false }, ''),
    ).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('writes the 12-digit form with a hyphen and the 10-digit form with - or +', () => {
    const person = parsePersonalNumber('811228-9874', TODAY);
    const old = parsePersonalNumber('121212+1212', TODAY);
    expect(person && formatPersonalNumber(person)).toBe('19811228-9874');
    expect(person && toTenDigitForm(person, TODAY)).toBe('811228-9874');
    expect(old && toTenDigitForm(old, TODAY)).toBe('121212+1212');
    expect(old && toTenDigitForm(old, '2011-12-31')).toBe('121212-1212');
  });
});

describe('seeded property checks', () => {
  it('every generated number parses back from its 12- and 10-digit forms; a changed check digit fails', () => {
    const random = seededRandom(3141);
    for (let i = 0; i < 3000; i++) {
      const birthDate = addDays('1880-01-01', random.int(0, 52_000));
      if (birthDate > TODAY) continue;
      const [y, d] = [Number(birthDate.slice(0, 4)), Number(birthDate.slice(8, 10))];
      const isCoordinationNumber = random.next() < 0.2;
      const dayField = isCoordinationNumber ? d + 60 : d;
      // YYMM from the date, the day field, a random birth number.
      const yymm = birthDate.slice(2, 4) + birthDate.slice(5, 7);
      const nine = `${yymm}${String(dayField).padStart(2, '0')}${String(random.int(0, 999)).padStart(3, '0')}`;
      const ten = nine + String(luhnCheckDigit(nine));
      const twelve = String(Math.floor(y / 100)) + ten;
      const expected = { digits: twelve, birthDate, isCoordinationNumber };
      expect(parsePersonalNumber(twelve, TODAY)).toEqual(expected);
      const short = toTenDigitForm(expected, TODAY);
      expect(parsePersonalNumber(short, TODAY)).toEqual(expected);
      expect(isValidPersonalNumber(short)).toBe(true);
      const wrong = twelve.slice(0, 11) + String((Number(twelve.at(-1)) + 1) % 10);
      expect(parsePersonalNumber(wrong, TODAY)).toBeNull();
    }
  });
});
