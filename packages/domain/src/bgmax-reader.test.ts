// Over 500 lines on purpose: the reader against every record type and every rule, table by table.
import { describe, expect, it } from 'vitest';
import {
  BGMAX_RULES,
  BgmaxError,
  type BgmaxFile,
  type BgmaxRule,
  bgmaxExtraReferenceSignedAmount,
  bgmaxPayments,
  bgmaxSignedAmount,
  decodeLatin1,
  encodeLatin1,
  readBgmax,
  scanBgmax,
} from './bgmax';
import { listSharedFiles, readSharedBytes } from './test-support/shared-files';

// Expected values come from the sample files themselves and the "verified" remarks of
// shared/domain/bgmax.md and shared/domain/bgmax-samples/SOURCES.md.
const SAMPLES = 'domain/bgmax-samples';
const FABHED = 'fabhed-exempelfil-ocr-kontroll-checksiffra-langd.txt';
const RICKARD = 'rickardlindgren-exempelfil-ocr-kontroll-checksiffra-langd.txt';
const BGMAXFIL4 = 'zimpler-BgMaxfil4.txt';
const MINIMAL = 'zimpler-minimal.txt';

function readSample(name: string) {
  return readBgmax(readSharedBytes(`${SAMPLES}/${name}`));
}

function section(file: BgmaxFile, index: number) {
  const found = file.sections[index];
  if (!found) throw new Error(`no section ${index}`);
  return found;
}

function payment(file: BgmaxFile, sectionIndex: number, index: number) {
  const found = section(file, sectionIndex).payments[index];
  if (!found) throw new Error(`no payment ${sectionIndex}/${index}`);
  return found;
}

const SAMPLE_HEADER = {
  layoutName: 'BGMAX',
  version: '01',
  writtenAt: '2004-05-25T17:30:35.010331',
  testMark: 'P',
};
const KALLE = {
  name: { name: 'Kalles Plåt AB', extraName: '' },
  address1: { street: 'Storgatan 2', postcode: '12345' },
  address2: { town: 'Storåker', country: '', countryCode: '' },
  organisationNumber: '005500001234',
};

describe('BGMAX sample files', () => {
  it('finds all four samples beside the repository', () => {
    expect(listSharedFiles(SAMPLES, '.txt')).toEqual([FABHED, RICKARD, BGMAXFIL4, MINIMAL]);
  });

  // Per file: TK70 counts, and per section [amount öre, TK20+TK21 count, currency, serial number].
  it.each([
    [MINIMAL, [1, 0, 0, 1], [[110000, 1, 'SEK', 74]]],
    [
      FABHED,
      [6, 1, 6, 2],
      [
        [190000, 3, 'SEK', 74],
        [800000, 4, 'SEK', 75],
      ],
    ],
    [
      RICKARD,
      [8, 1, 9, 3],
      [
        [190000, 3, 'SEK', 74],
        [800000, 4, 'SEK', 75],
        [400000, 2, 'EUR', 76],
      ],
    ],
    [
      BGMAXFIL4,
      [9, 0, 13, 4],
      [
        [370000, 2, 'SEK', 56],
        [200000, 1, 'SEK', 57],
        [290000, 4, 'SEK', 58],
        [400000, 2, 'EUR', 59],
      ],
    ],
  ] as const)(
    '%s: TK70 counts %j and every TK15 add up',
    (name, [payments, deductions, extras, deposits], sections) => {
      const { file, skippedRecords } = readSample(name);
      expect(skippedRecords).toEqual([]);
      expect(file.header).toEqual(SAMPLE_HEADER);
      expect(file.end).toEqual({
        paymentCount: payments,
        deductionCount: deductions,
        extraReferenceCount: extras,
        depositCount: deposits,
      });
      expect(file.sections).toHaveLength(sections.length);
      file.sections.forEach((s, i) => {
        const expected = sections[i];
        if (!expected) throw new Error(`no expectation for section ${i}`);
        const [amount, count, currency, serial] = expected;
        expect(s.payeeBankgiro).toBe('9912346');
        expect(s.payeePlusgiro).toBeNull();
        expect(s.currency).toBe(currency);
        expect(s.deposit).toEqual({
          bankAccount: '5841000001009823',
          paymentDate: '2004-05-25',
          serialNumber: serial,
          amountMinor: amount,
          currency,
          paymentCount: count,
          depositType: null,
        });
        // Recounted here independently of the reader: Σ TK20 − Σ TK21 (safe: small sample amounts).
        expect(s.payments.reduce((sum, p) => sum + bgmaxSignedAmount(p), 0)).toBe(amount);
        expect(s.payments).toHaveLength(count);
      });
      const all = file.sections.flatMap((s) => s.payments);
      expect(all.filter((p) => p.kind === 'payment')).toHaveLength(payments);
      expect(all.filter((p) => p.kind === 'deduction')).toHaveLength(deductions);
      expect(all.reduce((n, p) => n + p.extraReferences.length, 0)).toBe(extras);
    },
  );

  it('zimpler-minimal: one 1 100.00 SEK payment, TK70 line of 34 characters', () => {
    const { file } = readSample(MINIMAL);
    expect(file.sections[0]?.payments).toEqual([
      {
        kind: 'payment',
        senderBankgiro: '97012333',
        reference: '650861',
        amountMinor: 110000,
        referenceCode: 2,
        channel: 1,
        bgcSerialNumber: '000000000012',
        hasImage: false,
        deductionCode: null,
        extraReferences: [],
        informationTexts: [],
        name: null,
        address1: null,
        address2: null,
        organisationNumber: null,
      },
    ]);
  });

  describe('fabhed (CRLF, TABs, a deduction, no final line ending)', () => {
    const { file, tabExpandedLines } = readSample(FABHED);

    it('decodes the worked example of section 1 (serial 00074): 100 000 + 140 000 − 50 000 = 190 000', () => {
      expect(payment(file, 0, 0)).toEqual({
        kind: 'payment',
        senderBankgiro: '3783511',
        reference: '655969',
        amountMinor: 100000,
        referenceCode: 2,
        channel: 2,
        bgcSerialNumber: '000000000010',
        hasImage: false,
        deductionCode: null,
        extraReferences: [],
        informationTexts: [],
        ...KALLE,
      });
      expect(payment(file, 0, 1)).toMatchObject({
        kind: 'deduction',
        senderBankgiro: '3783511',
        reference: '89853',
        amountMinor: 50000,
        referenceCode: 3,
        channel: 2,
        bgcSerialNumber: '000230000111',
        hasImage: false,
        deductionCode: 0,
        ...KALLE,
      });
      expect(bgmaxSignedAmount(payment(file, 0, 1))).toBe(-50000);
      expect(payment(file, 0, 2)).toMatchObject({
        reference: '657866 658765 657767',
        amountMinor: 140000,
        referenceCode: 3,
        informationTexts: ['Betalning med extra refnr 657965'],
      });
    });

    it('expands the two TABs of line 17 so its reference lands in its columns', () => {
      expect(tabExpandedLines).toEqual([17]);
      expect(payment(file, 0, 2).extraReferences).toEqual(
        ['657866', '658765', '657767', '657965'].map((reference) => ({
          sign: 'positive',
          reference,
          amountMinor: 0,
          referenceCode: 2,
        })),
      );
    });

    it('decodes Latin-1 names and reference code 1 with an image', () => {
      expect(payment(file, 1, 0).name?.name).toBe('Olles färg AB');
      expect(payment(file, 1, 0).address2?.town).toBe('Storåker');
      expect(payment(file, 1, 1)).toMatchObject({
        senderBankgiro: '1234567',
        reference: '',
        amountMinor: 120000,
        referenceCode: 1,
        channel: 3,
        hasImage: true,
        name: { name: 'Berits Garn', extraName: '' },
        address1: { street: 'Storgatan 10', postcode: '12345' },
        organisationNumber: '005500002222',
      });
      expect(payment(file, 1, 3).informationTexts).toEqual([' Faktura 658369', ' Faktura 658468']);
    });
  });

  it('rickardlindgren (LF, final empty line): same first two sections as fabhed, plus the EUR section', () => {
    const { file } = readSample(RICKARD);
    expect(file.sections.slice(0, 2)).toEqual(readSample(FABHED).file.sections);
    expect(payment(file, 2, 0)).toMatchObject({
      senderBankgiro: '9701233',
      reference: '801266,801365,801464',
      amountMinor: 300000,
      referenceCode: 3,
      informationTexts: [' Faktura801465'],
    });
    expect(payment(file, 2, 0).extraReferences.map((e) => e.reference)).toEqual([
      '801266',
      '801365',
      '801464',
    ]);
  });

  describe('zimpler-BgMaxfil4 (TK23, paper slips, defective TK29, trailing empty lines)', () => {
    const { file } = readSample(BGMAXFIL4);

    it('third section: extra references 100 000 + 50 000 + 40 000 − 50 000 = the TK20 amount 140 000', () => {
      const parent = payment(file, 2, 3);
      expect(parent).toMatchObject({
        senderBankgiro: '3783511',
        reference: '',
        amountMinor: 140000,
        referenceCode: 0,
        channel: 3,
        bgcSerialNumber: '000000000030',
        hasImage: true,
      });
      expect(parent.extraReferences).toEqual([
        { sign: 'positive', reference: '7495575', amountMinor: 100000, referenceCode: 2 },
        { sign: 'positive', reference: '695668', amountMinor: 50000, referenceCode: 2 },
        { sign: 'positive', reference: '8988777', amountMinor: 40000, referenceCode: 5 },
        { sign: 'negative', reference: '74450', amountMinor: 50000, referenceCode: 2 },
      ]);
      expect(parent.extraReferences.reduce((sum, e) => sum + bgmaxExtraReferenceSignedAmount(e), 0)).toBe(
        140000,
      );
    });

    it('keeps a paper slip without sender bankgiro and the defective organisation number', () => {
      expect(payment(file, 2, 2)).toMatchObject({
        senderBankgiro: null,
        reference: '535765',
        amountMinor: 50000,
        channel: 3,
        name: null,
      });
      expect(payment(file, 0, 1)).toMatchObject({
        senderBankgiro: '97012333',
        reference: '524967',
        amountMinor: 190000,
        name: { name: 'Olles färg AB', extraName: '' },
        organisationNumber: '00550000432',
      });
    });

    it('reads zero-amount extra references and several TK25 texts', () => {
      expect(payment(file, 0, 0)).toMatchObject({
        reference: '',
        amountMinor: 180000,
        referenceCode: 0,
        bgcSerialNumber: '000120000018',
        informationTexts: ['Betalning med extra refnr 665869 657775 665661', '665760'],
      });
      expect(payment(file, 0, 0).extraReferences.map((e) => [e.reference, e.amountMinor])).toEqual([
        ['665760', 0],
        ['665869', 0],
        ['665661', 0],
        ['657775', 0],
      ]);
      expect(payment(file, 1, 0).extraReferences.map((e) => [e.reference, e.amountMinor])).toEqual([
        ['573964', 170000],
        ['573865', 30000],
      ]);
      expect(section(file, 3).currency).toBe('EUR');
      expect(payment(file, 3, 0).reference).toBe('8012577,8013575');
    });
  });
});

// A valid file in the shape of zimpler-minimal.txt; refusal cases change one thing each.
const START = '01BGMAX               0120040525173035010331P';
const OPEN = '050009912346          SEK';
const PAY = '200097012333                   650861000000000000110000210000000000120';
const DEPOSIT = '15000000000000000000058410000010098232004052500074000000000000110000SEK00000001 ';
const END = '7000000001000000000000000000000001';
const VALID = [START, OPEN, PAY, DEPOSIT, END];

function fileOf(lines: readonly string[], eol = '\r\n'): Uint8Array {
  return encodeLatin1(lines.join(eol) + eol);
}

function refusal(lines: readonly string[]): BgmaxError {
  try {
    readBgmax(fileOf(lines));
  } catch (error) {
    if (error instanceof BgmaxError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
}

function replaceAt(line: string, position: number, value: string): string {
  return (
    line.padEnd(80, ' ').slice(0, position) + value + line.padEnd(80, ' ').slice(position + value.length)
  );
}

// The deduction of fabhed line 8 with another amount and deduction code.
const deduction = (amount: string, code = '0') =>
  `21000378351189853                    ${amount}320002300001110${code}`;

/** A TK70 with these counts of payments, deductions, extra references and deposits. */
const tk70 = (...counts: [number, number, number, number]) =>
  `70${counts.map((n) => String(n).padStart(8, '0')).join('')}`;

/** A TK70 whose count of payments, deductions, extra references or deposits is one off. */
const WRONG_TK70_COUNTS = Object.entries({
  payment: tk70(2, 0, 0, 1),
  deduction: tk70(1, 1, 0, 1),
  'extra-reference': tk70(1, 0, 1, 1),
  deposit: tk70(1, 0, 0, 2),
}).map(([what, end]): [string, string[], number, BgmaxRule] => [
  `a wrong TK70 ${what} count`,
  [START, OPEN, PAY, DEPOSIT, end],
  5,
  'bgmax.end_count_mismatch',
]);

describe('refusals name the line and the rule', () => {
  it.each<[string, string[], number, BgmaxRule]>([
    [
      'a wrong TK15 sum',
      [START, OPEN, PAY, replaceAt(DEPOSIT, 50, '000000000000110001'), END],
      4,
      'bgmax.deposit_amount_mismatch',
    ],
    [
      'a wrong TK15 count',
      [START, OPEN, PAY, replaceAt(DEPOSIT, 71, '00000002'), END],
      4,
      'bgmax.deposit_count_mismatch',
    ],
    [
      'a TK15 sum that adds a deduction instead of subtracting it',
      [START, OPEN, PAY, deduction('000000000000010000'), replaceAt(DEPOSIT, 50, '000000000000120000'), END],
      5,
      'bgmax.deposit_amount_mismatch',
    ],
    ...WRONG_TK70_COUNTS,
    ['a TK20 before any TK05', [START, PAY, DEPOSIT, END], 2, 'bgmax.outside_section'],
    ['a TK20 after the TK15', [START, OPEN, PAY, DEPOSIT, PAY, END], 5, 'bgmax.outside_section'],
    ['a TK15 without TK05', [START, DEPOSIT, END], 2, 'bgmax.outside_section'],
    ['a non-digit amount', [START, OPEN, replaceAt(PAY, 45, '1X'), DEPOSIT, END], 3, 'bgmax.not_digits'],
    [
      'a blank amount',
      [START, OPEN, replaceAt(PAY, 37, ' '.repeat(18)), DEPOSIT, END],
      3,
      'bgmax.not_digits',
    ],
    [
      'a non-digit bankgiro',
      [START, replaceAt(OPEN, 2, '000991-234'), PAY, DEPOSIT, END],
      2,
      'bgmax.not_digits',
    ],
    ['a non-digit TK70 count', [START, OPEN, PAY, DEPOSIT, replaceAt(END, 30, 'x')], 5, 'bgmax.not_digits'],
    ['a record longer than 80', [START, OPEN, PAY.padEnd(81, ' '), DEPOSIT, END], 3, 'bgmax.record_too_long'],
    [
      'a TAB that pushes a record past 80',
      [START, OPEN, `${PAY.padEnd(76, ' ')}\t`, DEPOSIT, END],
      3,
      'bgmax.record_too_long',
    ],
    ['a missing TK70', [START, OPEN, PAY, DEPOSIT], 4, 'bgmax.end_missing'],
    ['a missing TK70 and TK15', [START, OPEN, PAY], 3, 'bgmax.end_missing'],
    ['a TK05 before TK01', [OPEN, START, PAY, DEPOSIT, END], 1, 'bgmax.start_not_first'],
    ['a second TK01', [START, START, OPEN, PAY, DEPOSIT, END], 2, 'bgmax.start_not_first'],
    ['another layout name', [replaceAt(START, 2, 'BGMIN'), OPEN, PAY, DEPOSIT, END], 1, 'bgmax.not_bgmax'],
    ['a record after TK70', [START, OPEN, PAY, DEPOSIT, END, OPEN], 6, 'bgmax.record_after_end'],
    [
      'a TK05 inside an open section',
      [START, OPEN, PAY, OPEN, PAY, DEPOSIT, END],
      4,
      'bgmax.section_not_closed',
    ],
    ['a TK70 inside an open section', [START, OPEN, PAY, END], 4, 'bgmax.section_not_closed'],
    [
      'a TK26 before any TK20',
      [START, OPEN, '26Kalles Plåt AB', PAY, DEPOSIT, END],
      3,
      'bgmax.detail_without_payment',
    ],
    ['a TK25 after the TK15', [START, OPEN, PAY, DEPOSIT, '25Text', END], 5, 'bgmax.detail_without_payment'],
    [
      'a TK22 in a new section with no TK20 yet',
      [START, OPEN, PAY, DEPOSIT, OPEN, replaceAt(PAY, 0, '22'), END],
      6,
      'bgmax.detail_without_payment',
    ],
    [
      'a second TK26',
      [START, OPEN, PAY, '26Kalles Plåt AB', '26Berits Garn', DEPOSIT, END],
      5,
      'bgmax.detail_repeated',
    ],
    [
      'a second TK29',
      [START, OPEN, PAY, '29005500001234', '29005500002222', DEPOSIT, END],
      5,
      'bgmax.detail_repeated',
    ],
    [
      'a TK22 with another BGC serial number',
      [START, OPEN, PAY, replaceAt(replaceAt(PAY, 0, '22'), 57, '000000000013'), DEPOSIT, END],
      4,
      'bgmax.extra_reference_mismatch',
    ],
    [
      'a TK23 with another sender',
      [START, OPEN, PAY, replaceAt(replaceAt(PAY, 0, '23'), 2, '0003783511'), DEPOSIT, END],
      4,
      'bgmax.extra_reference_mismatch',
    ],
    [
      'an impossible payment date',
      [START, OPEN, PAY, replaceAt(DEPOSIT, 37, '20050229'), END],
      4,
      'bgmax.invalid_date',
    ],
    [
      'an impossible timestamp date',
      [replaceAt(START, 24, '20041305'), OPEN, PAY, DEPOSIT, END],
      1,
      'bgmax.invalid_date',
    ],
    [
      'an impossible timestamp hour',
      [replaceAt(START, 32, '24'), OPEN, PAY, DEPOSIT, END],
      1,
      'bgmax.invalid_date',
    ],
    ['an unknown test marker', [replaceAt(START, 44, 'X'), OPEN, PAY, DEPOSIT, END], 1, 'bgmax.invalid_code'],
    ['reference code 6', [START, OPEN, replaceAt(PAY, 55, '6'), DEPOSIT, END], 3, 'bgmax.invalid_code'],
    ['payment channel 5', [START, OPEN, replaceAt(PAY, 56, '5'), DEPOSIT, END], 3, 'bgmax.invalid_code'],
    ['image marker 2', [START, OPEN, replaceAt(PAY, 69, '2'), DEPOSIT, END], 3, 'bgmax.invalid_code'],
    [
      'deduction code 3',
      [
        START,
        OPEN,
        PAY,
        deduction('000000000000010000', '3'),
        replaceAt(DEPOSIT, 50, '000000000000100000'),
        END,
      ],
      4,
      'bgmax.invalid_code',
    ],
    ['currency USD', [START, replaceAt(OPEN, 22, 'USD'), PAY, DEPOSIT, END], 2, 'bgmax.invalid_currency'],
    [
      'TK15 in EUR for a SEK section',
      [START, OPEN, PAY, replaceAt(DEPOSIT, 68, 'EUR'), END],
      4,
      'bgmax.currency_mismatch',
    ],
    [
      'an amount above 2^53 − 1 öre',
      [START, OPEN, replaceAt(PAY, 37, '000009007199254740992'.slice(3)), DEPOSIT, END],
      3,
      'bgmax.amount_out_of_range',
    ],
    ['a file of empty lines', ['', '   '], 1, 'bgmax.empty_file'],
  ])('%s', (_name, lines, line, rule) => {
    const error = refusal(lines);
    expect(error.rule).toBe(rule);
    expect(error.line).toBe(line);
    expect(error.message).toContain(`line ${line}`);
    expect(error.message).toContain(rule);
    expect(error.name).toBe('BgmaxError');
    expect(BGMAX_RULES).toContain(rule);
  });

  it('counts empty lines in the line number', () => {
    const error = refusal([START, '', OPEN, '', PAY, replaceAt(DEPOSIT, 50, '000000000000000001'), END]);
    expect([error.line, error.rule]).toEqual([6, 'bgmax.deposit_amount_mismatch']);
  });

  it('accepts the largest safe amount and sums beyond 2^53 exactly', () => {
    const max = String(Number.MAX_SAFE_INTEGER).padStart(18, '0');
    const ok = [START, OPEN, replaceAt(PAY, 37, max), replaceAt(DEPOSIT, 50, max), END];
    expect(readBgmax(fileOf(ok)).file.sections[0]?.deposit.amountMinor).toBe(Number.MAX_SAFE_INTEGER);
    // Two payments of MAX_SAFE minus a deduction of MAX_SAFE: the partial sum passes 2^53, the total
    // is MAX_SAFE; a float sum would be off.
    const bigPay = replaceAt(PAY, 37, max);
    const lines = [
      START,
      OPEN,
      bigPay,
      bigPay,
      deduction(max),
      replaceAt(replaceAt(DEPOSIT, 50, max), 71, '00000003'),
      '7000000002000000010000000000000001',
    ];
    expect(readBgmax(fileOf(lines)).file.sections[0]?.deposit.amountMinor).toBe(Number.MAX_SAFE_INTEGER);
    const offByOne = replaceAt(
      replaceAt(DEPOSIT, 50, String(Number.MAX_SAFE_INTEGER - 1).padStart(18, '0')),
      71,
      '00000003',
    );
    expect(refusal([...lines.slice(0, 5), offByOne, lines[6] ?? '']).rule).toBe(
      'bgmax.deposit_amount_mismatch',
    );
  });
});

describe('physical format', () => {
  const expected = readBgmax(fileOf(VALID)).file;

  it('reads CRLF and LF alike, with or without a final line ending and with empty lines', () => {
    expect(readBgmax(fileOf(VALID, '\n')).file).toEqual(expected);
    expect(readBgmax(encodeLatin1(VALID.join('\r\n'))).file).toEqual(expected);
    expect(readBgmax(fileOf(['', ...VALID.slice(0, 3), '', ...VALID.slice(3), '', ''])).file).toEqual(
      expected,
    );
  });

  it('pads short records and keeps full 80-character records', () => {
    expect(readBgmax(fileOf(VALID.map((l) => l.padEnd(80, ' ')))).file).toEqual(expected);
    expect(readBgmax(fileOf(VALID.map((l) => l.trimEnd()))).file).toEqual(expected);
  });

  it('decodes ISO-8859-1, not UTF-8 or windows-1252', () => {
    expect(decodeLatin1(new Uint8Array([0x50, 0x6c, 0xe5, 0x74, 0xe4, 0xf6, 0xc5, 0xc4, 0xd6]))).toBe(
      'PlåtäöÅÄÖ',
    );
    expect(decodeLatin1(new Uint8Array([0x80, 0x9f, 0xff]))).toBe('\u0080\u009f\u00ff');
    // Every byte is its own code point, with a C1 code among them or not (two ways of decoding).
    const every = Array.from({ length: 256 }, (_, b) => b);
    const withoutC1 = every.filter((b) => b < 0x80 || b > 0x9f);
    for (const bytes of [every, withoutC1, [0x41, 0x9d, 0x42]])
      expect(decodeLatin1(new Uint8Array(bytes))).toBe(String.fromCharCode(...bytes));
    const named = [START, OPEN, PAY, '26Kalles Plåt AB', '28Storåker', DEPOSIT, END];
    expect(readBgmax(fileOf(named)).file.sections[0]?.payments[0]?.name?.name).toBe('Kalles Plåt AB');
    // The same text as UTF-8 bytes reads as mojibake, proving the reader does not guess UTF-8.
    const utf8 = new TextEncoder().encode(`${named.join('\r\n')}\r\n`);
    expect(readBgmax(utf8).file.sections[0]?.payments[0]?.address2?.town).toBe('StorÃ¥ker');
  });

  it('skips and reports unknown record types anywhere, without changing the result', () => {
    const lines = [
      '99 before the start record',
      START,
      '02unknown',
      OPEN,
      PAY,
      '24in the middle of a payment',
      '26Berits Garn',
      'XX not even digits',
      DEPOSIT,
      END,
      '80after the end record',
    ];
    const { file, skippedRecords } = readBgmax(fileOf(lines));
    expect(skippedRecords).toEqual([
      { line: 1, recordType: '99' },
      { line: 3, recordType: '02' },
      { line: 6, recordType: '24' },
      { line: 8, recordType: 'XX' },
      { line: 11, recordType: '80' },
    ]);
    expect(file.sections[0]?.payments[0]?.name).toEqual({ name: 'Berits Garn', extraName: '' });
    expect({ ...file, sections: [] }).toEqual({ ...expected, sections: [] });
  });

  it('reads every field of the detail records from their columns', () => {
    const lines = [
      START,
      replaceAt(OPEN, 12, '0041054685'),
      PAY,
      `25${'Text med blanka på slutet'.padEnd(50, ' ')}IGNORED`,
      `26${'Olles färg AB'.padEnd(35, ' ')}c/o Berit`,
      `27${'Lillagatan 3'.padEnd(35, ' ')}135 68`,
      `28${'Oslo'.padEnd(35, ' ')}${'Norge'.padEnd(35, ' ')}NO`,
      '29005562736032',
      replaceAt(DEPOSIT, 79, 'K'),
      END,
    ];
    const s = readBgmax(fileOf(lines)).file.sections[0];
    expect(s?.payeePlusgiro).toBe('41054685');
    expect(s?.deposit.depositType).toBe('K');
    expect(s?.payments[0]).toMatchObject({
      informationTexts: ['Text med blanka på slutet'],
      name: { name: 'Olles färg AB', extraName: 'c/o Berit' },
      address1: { street: 'Lillagatan 3', postcode: '135 68' },
      address2: { town: 'Oslo', country: 'Norge', countryCode: 'NO' },
      organisationNumber: '005562736032',
    });
  });
});

describe('reading a payment at a time (bgmaxPayments, scanBgmax)', () => {
  it('hands over the payments of every sample in file order, each complete, with its section', () => {
    for (const name of [FABHED, RICKARD, BGMAXFIL4, MINIMAL]) {
      const bytes = readSharedBytes(`${SAMPLES}/${name}`);
      const { file, skippedRecords, tabExpandedLines } = readBgmax(bytes);
      const handed: { sectionIndex: number; payment: unknown; section: unknown }[] = [];
      const payments = bgmaxPayments(bytes);
      let next = payments.next();
      while (!next.done) {
        handed.push(next.value);
        next = payments.next();
      }
      const expected = file.sections.flatMap((s, sectionIndex) =>
        s.payments.map((payment) => ({
          sectionIndex,
          payment,
          section: { payeeBankgiro: s.payeeBankgiro, payeePlusgiro: s.payeePlusgiro, currency: s.currency },
        })),
      );
      expect(handed, name).toEqual(expected);
      const withoutPayments = file.sections.map(({ payments: _, ...facts }) => facts);
      expect(next.value, name).toEqual({
        header: file.header,
        sections: withoutPayments,
        end: file.end,
        skippedRecords,
        tabExpandedLines,
      });
      expect(scanBgmax(bytes), name).toEqual(next.value);
    }
  });

  it('refuses what readBgmax refuses, by the same line and rule', () => {
    const bad = fileOf([START, OPEN, PAY, replaceAt(DEPOSIT, 50, '000000000000110001'), END]);
    expect(() => readBgmax(bad)).toThrow(BgmaxError);
    // A section's last payment is handed over once its TK15 is checked: here the refusal comes first.
    const payments = bgmaxPayments(bad);
    try {
      payments.next();
      expect.unreachable('the TK15 does not add up');
    } catch (error) {
      expect(error).toBeInstanceOf(BgmaxError);
      expect({ line: (error as BgmaxError).line, rule: (error as BgmaxError).rule }).toEqual({
        line: 4,
        rule: 'bgmax.deposit_amount_mismatch',
      });
    }
    expect(() => scanBgmax(bad)).toThrow(BgmaxError);
  });
});
