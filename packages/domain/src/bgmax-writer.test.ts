import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BgmaxExtraReference,
  type BgmaxFile,
  type BgmaxPayment,
  type BgmaxSection,
  type BgmaxSettlementInput,
  bgmaxEndCounts,
  bgmaxSectionTotals,
  createBgmaxSettlementFile,
  decodeLatin1,
  readBgmax,
  writeBgmax,
  writeBgmaxSettlement,
} from './bgmax';
import { createOcrReference } from './ocr-reference';
import { listSharedFiles, readSharedBytes } from './test-support/shared-files';

const SAMPLES = 'domain/bgmax-samples';

function lines(bytes: Uint8Array): string[] {
  const text = decodeLatin1(bytes);
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}

// What a sample's records look like after the reader's normalisation: TABs expanded to 6 blanks,
// padded to 80, empty lines dropped, CRLF after every record.
function normalisedSample(bytes: Uint8Array): string {
  const records = decodeLatin1(bytes)
    .split('\n')
    .map((line) => line.replace(/\r$/, '').replaceAll('\t', ' '.repeat(6)))
    .filter((line) => line.trim() !== '')
    .map((line) => line.padEnd(80, ' '));
  return `${records.join('\r\n')}\r\n`;
}

describe('writing the sample files back', () => {
  it.each(listSharedFiles(SAMPLES, '.txt'))(
    '%s: read → write gives the same records, read again equal',
    (name) => {
      const bytes = readSharedBytes(`${SAMPLES}/${name}`);
      const { file } = readBgmax(bytes);
      const written = writeBgmax(file);
      expect(decodeLatin1(written)).toBe(normalisedSample(bytes));
      expect(readBgmax(written)).toEqual({ file, skippedRecords: [], tabExpandedLines: [] });
    },
  );
});

const SETTLEMENT: BgmaxSettlementInput = {
  payeeBankgiro: '9912346',
  paymentDate: '2025-03-14',
  bankAccount: '5841000001009823',
  payments: [
    { reference: '1234574', amountMinor: 125050, senderBankgiro: '3783511', name: 'Kalles Plåt AB' },
    { reference: 'Faktura 12', amountMinor: 99 },
  ],
};

describe('writeBgmaxSettlement', () => {
  it('writes one section with computed TK15 and TK70, 80-character Latin-1 records and CRLF', () => {
    const bytes = writeBgmaxSettlement(SETTLEMENT);
    const records = lines(bytes);
    expect(records).toEqual(
      [
        '01BGMAX               0120250314000000000000T',
        '050009912346          SEK',
        `200003783511${'1234574'.padStart(25, ' ')}000000000000125050210000000000010`,
        '26Kalles Plåt AB',
        `200000000000${'Faktura 12'.padEnd(25, ' ')}000000000000000099310000000000020`,
        `15${'5841000001009823'.padStart(35, '0')}2025031400001000000000000125149SEK00000002`,
        '7000000002000000000000000000000001',
      ].map((record) => record.padEnd(80, ' ')),
    );
    expect(bytes.length).toBe(7 * 82);
    expect(bytes[4 * 82 - 82 + 2 + 'Kalles Pl'.length]).toBe(0xe5);
  });

  it('reads back as the file it was built from', () => {
    const file = createBgmaxSettlementFile(SETTLEMENT);
    expect(readBgmax(writeBgmaxSettlement(SETTLEMENT)).file).toEqual(file);
    expect(file.sections[0]?.deposit).toMatchObject({
      amountMinor: 125149,
      paymentCount: 2,
      serialNumber: 1,
    });
    expect(file.end).toEqual({ paymentCount: 2, deductionCount: 0, extraReferenceCount: 0, depositCount: 1 });
  });

  it('writes a deduction as a TK21 with deduction code 0, taken off the deposit, and refuses a negative one', () => {
    const input: BgmaxSettlementInput = {
      ...SETTLEMENT,
      payments: [...SETTLEMENT.payments, { reference: '1234574', amountMinor: 50, deduction: true }],
    };
    const file = createBgmaxSettlementFile(input);
    expect(readBgmax(writeBgmaxSettlement(input)).file).toEqual(file);
    expect(file.sections[0]?.payments[2]).toMatchObject({
      kind: 'deduction',
      deductionCode: 0,
      amountMinor: 50,
      bgcSerialNumber: '000000000003',
    });
    expect(file.sections[0]?.deposit).toMatchObject({ amountMinor: 125099, paymentCount: 3 });
    expect(file.end).toEqual({ paymentCount: 2, deductionCount: 1, extraReferenceCount: 0, depositCount: 1 });
    expect(() =>
      createBgmaxSettlementFile({
        ...SETTLEMENT,
        payments: [{ reference: '', amountMinor: 1, deduction: true }],
      }),
    ).toThrow(/deposit cannot be negative/);
  });

  it.each([
    ['1234574', 2, '1234574'],
    ['  1234574 ', 2, '1234574'],
    ['1234575', 3, '1234575'],
    ['Faktura 12', 3, 'Faktura 12'],
    ['', 0, ''],
    ['   ', 0, ''],
  ] as const)('reference "%s" gets reference code %i by default', (reference, code, stored) => {
    const file = createBgmaxSettlementFile({ ...SETTLEMENT, payments: [{ reference, amountMinor: 1 }] });
    expect(file.sections[0]?.payments[0]).toMatchObject({ reference: stored, referenceCode: code });
  });

  it('uses the given options and replaces characters outside Latin-1 with ?', () => {
    const input: BgmaxSettlementInput = {
      payeeBankgiro: '0009912346',
      paymentDate: '2025-12-31',
      currency: 'EUR',
      depositSerialNumber: 99999,
      writtenAt: '2025-12-31T23:59:59.999999',
      testMark: 'P',
      payments: [{ reference: '', amountMinor: 1, name: 'Łódź 😀', referenceCode: 1, channel: 4 }],
    };
    const { file } = readBgmax(writeBgmaxSettlement(input));
    expect(file.header).toEqual({
      layoutName: 'BGMAX',
      version: '01',
      writtenAt: input.writtenAt,
      testMark: 'P',
    });
    expect(file.sections[0]).toMatchObject({ payeeBankgiro: '9912346', currency: 'EUR' });
    expect(file.sections[0]?.deposit).toMatchObject({
      bankAccount: null,
      serialNumber: 99999,
      currency: 'EUR',
    });
    expect(file.sections[0]?.payments[0]).toMatchObject({
      name: { name: '?ód? ?' },
      referenceCode: 1,
      channel: 4,
    });
  });

  it('passes every Latin-1 character through, C1 codes included, so anything read can be written', () => {
    const name = 'A\u0085B\u00a0ÿ';
    const input = { ...SETTLEMENT, payments: [{ reference: '', amountMinor: 1, name }] };
    expect(readBgmax(writeBgmaxSettlement(input)).file.sections[0]?.payments[0]?.name?.name).toBe(name);
  });

  it.each<[string, Partial<BgmaxSettlementInput>]>([
    ['a zero amount', { payments: [{ reference: '', amountMinor: 0 }] }],
    ['a negative amount', { payments: [{ reference: '', amountMinor: -1 }] }],
    ['a fractional amount', { payments: [{ reference: '', amountMinor: 1.5 }] }],
    ['an amount above 2^53 − 1', { payments: [{ reference: '', amountMinor: 2 ** 53 }] }],
    [
      'a total above 2^53 − 1',
      {
        payments: [
          { reference: '', amountMinor: Number.MAX_SAFE_INTEGER },
          { reference: '', amountMinor: 1 },
        ],
      },
    ],
    ['a reference of 26 characters', { payments: [{ reference: '1'.repeat(26), amountMinor: 1 }] }],
    ['a name of 36 characters', { payments: [{ reference: '', amountMinor: 1, name: 'x'.repeat(36) }] }],
    ['a TAB in a name', { payments: [{ reference: '', amountMinor: 1, name: 'Kalle\tPlåt' }] }],
    ['a line break in a reference', { payments: [{ reference: '12\n34', amountMinor: 1 }] }],
    [
      'a sender bankgiro with a hyphen',
      { payments: [{ reference: '', amountMinor: 1, senderBankgiro: '378-3511' }] },
    ],
    ['a payee bankgiro with a hyphen', { payeeBankgiro: '991-2346' }],
    ['no payee bankgiro', { payeeBankgiro: '0000000' }],
    ['an impossible payment date', { paymentDate: '2025-02-29' }],
    ['a timestamp without microseconds', { writtenAt: '2025-03-14T12:00:00' }],
    ['a timestamp at hour 24', { writtenAt: '2025-03-14T24:00:00.000000' }],
    ['a deposit serial number of 6 digits', { depositSerialNumber: 100000 }],
  ])('refuses %s with a RangeError', (_name, change) => {
    expect(() => writeBgmaxSettlement({ ...SETTLEMENT, ...change })).toThrow(RangeError);
  });
});

describe('writeBgmax refuses a file the reader would refuse', () => {
  const base = (): BgmaxFile =>
    structuredClone(readBgmax(readSharedBytes(`${SAMPLES}/zimpler-BgMaxfil4.txt`)).file);
  const first = (file: BgmaxFile): BgmaxSection => file.sections[0] as BgmaxSection;
  const firstPayment = (file: BgmaxFile): BgmaxPayment => first(file).payments[0] as BgmaxPayment;

  it.each<[string, (file: BgmaxFile) => void, RegExp]>([
    [
      'a TK15 amount that is not the sum',
      (f) => {
        first(f).deposit.amountMinor += 1;
      },
      /deposit amount/,
    ],
    [
      'a TK15 count that is not the count',
      (f) => {
        first(f).deposit.paymentCount += 1;
      },
      /deposit count/,
    ],
    [
      'a TK15 currency unlike TK05',
      (f) => {
        first(f).deposit.currency = 'EUR';
      },
      /currencies/,
    ],
    [
      'a TK70 count that is not the count',
      (f) => {
        f.end.extraReferenceCount += 1;
      },
      /extraReferenceCount/,
    ],
    [
      'a payment turned into a deduction',
      (f) => {
        firstPayment(f).kind = 'deduction';
        firstPayment(f).deductionCode = 0;
        f.end = bgmaxEndCounts(f.sections);
      },
      /deposit amount/,
    ],
    [
      'a payment with a deduction code',
      (f) => {
        firstPayment(f).deductionCode = 0;
      },
      /deduction code/,
    ],
    [
      'a BGC serial number of 11 digits',
      (f) => {
        firstPayment(f).bgcSerialNumber = '12345678901';
      },
      /serial/,
    ],
    [
      'reference code 9',
      (f) => {
        firstPayment(f).referenceCode = 9 as 0;
      },
      /reference code/,
    ],
    [
      'an information text of 51 characters',
      (f) => {
        firstPayment(f).informationTexts.push('x'.repeat(51));
      },
      /information/,
    ],
    [
      'a deposit type of two characters',
      (f) => {
        first(f).deposit.depositType = 'KD';
      },
      /deposit type/,
    ],
    [
      'a layout version of one digit',
      (f) => {
        f.header.version = '1';
      },
      /version/,
    ],
  ])('%s', (_name, change, message) => {
    const file = base();
    expect(() => writeBgmax(file)).not.toThrow();
    change(file);
    expect(() => writeBgmax(file)).toThrow(message);
  });

  it('writes a section without payments (TK15 of zero) and reads it back', () => {
    const file = base();
    first(file).payments = [];
    first(file).deposit = { ...first(file).deposit, amountMinor: 0, paymentCount: 0 };
    file.end = bgmaxEndCounts(file.sections);
    expect(readBgmax(writeBgmax(file)).file).toEqual(file);
  });
});

// Generators for the property tests. Text is Latin-1 with å, ä, ö; values have the form the reader
// returns (no trailing blanks; references without surrounding blanks; numbers without leading zeros).
const LATIN1_CHARS = [...'abcdefghijklmnopqrstuvwxyzåäöABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖéü0123456789 -.,&/:'];
const latin1Text = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...LATIN1_CHARS), maxLength }).map((s) => s.trimEnd());
const reference = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 23n - 1n }).map((base) => createOcrReference(base.toString())),
  latin1Text(25).map((s) => s.trim()),
  fc.constant(''),
);
const digitsWithoutLeadingZero = (maxDigits: number) =>
  fc.bigInt({ min: 1n, max: 10n ** BigInt(maxDigits) - 1n }).map((n) => n.toString());
const amountMinor = fc.bigInt({ min: 1n, max: 10n ** 12n }).map(Number);
const isoDate = fc
  .record({
    year: fc.integer({ min: 1990, max: 2099 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
const referenceCode = fc.constantFrom(0, 1, 2, 3, 4, 5) as fc.Arbitrary<0 | 1 | 2 | 3 | 4 | 5>;

const settlementInput: fc.Arbitrary<BgmaxSettlementInput> = fc.record({
  payeeBankgiro: digitsWithoutLeadingZero(8),
  paymentDate: isoDate,
  bankAccount: fc.option(digitsWithoutLeadingZero(16), { nil: null }),
  payments: fc.array(
    fc.record({
      reference,
      amountMinor,
      senderBankgiro: fc.option(digitsWithoutLeadingZero(8), { nil: null }),
      name: fc.option(latin1Text(35), { nil: null }),
    }),
    { minLength: 1, maxLength: 40 },
  ),
});

const extraReference: fc.Arbitrary<BgmaxExtraReference> = fc.record({
  sign: fc.constantFrom('positive', 'negative') as fc.Arbitrary<'positive' | 'negative'>,
  reference,
  amountMinor: fc.oneof(fc.constant(0), amountMinor),
  referenceCode,
});

const payment: fc.Arbitrary<BgmaxPayment> = fc
  .record({
    kind: fc.constantFrom('payment', 'deduction') as fc.Arbitrary<'payment' | 'deduction'>,
    senderBankgiro: fc.option(digitsWithoutLeadingZero(10), { nil: null }),
    reference,
    amountMinor,
    referenceCode,
    channel: fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<1 | 2 | 3 | 4>,
    bgcSerialNumber: fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }).map((n) => n.toString().padStart(12, '0')),
    hasImage: fc.boolean(),
    deductionCode: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>,
    extraReferences: fc.array(extraReference, { maxLength: 4 }),
    informationTexts: fc.array(latin1Text(50), { maxLength: 3 }),
    name: fc.option(fc.record({ name: latin1Text(35), extraName: latin1Text(35) }), { nil: null }),
    address1: fc.option(fc.record({ street: latin1Text(35), postcode: latin1Text(9) }), { nil: null }),
    address2: fc.option(
      fc.record({ town: latin1Text(35), country: latin1Text(35), countryCode: latin1Text(2) }),
      {
        nil: null,
      },
    ),
    organisationNumber: fc.option(latin1Text(12), { nil: null }),
  })
  .map((p) => ({ ...p, deductionCode: p.kind === 'deduction' ? p.deductionCode : null }));

// A section whose first record is a payment large enough to cover the deductions, with its TK15
// computed, so the deposit is never negative.
const section: fc.Arbitrary<BgmaxSection> = fc
  .record({
    payeeBankgiro: digitsWithoutLeadingZero(10),
    payeePlusgiro: fc.option(digitsWithoutLeadingZero(10), { nil: null }),
    currency: fc.constantFrom('SEK', 'EUR') as fc.Arbitrary<'SEK' | 'EUR'>,
    payments: fc.array(payment, { minLength: 1, maxLength: 12 }),
    bankAccount: fc.option(digitsWithoutLeadingZero(35), { nil: null }),
    paymentDate: isoDate,
    serialNumber: fc.integer({ min: 0, max: 99999 }),
    depositType: fc.constantFrom(null, 'K', 'D', 'S'),
  })
  .map(({ payments, bankAccount, paymentDate, serialNumber, depositType, ...opening }) => {
    const deductions = payments.reduce((sum, p) => sum + (p.kind === 'deduction' ? p.amountMinor : 0), 0);
    const [head, ...rest] = payments as [BgmaxPayment, ...BgmaxPayment[]];
    const covered = [
      { ...head, kind: 'payment' as const, deductionCode: null, amountMinor: head.amountMinor + deductions },
      ...rest,
    ];
    const totals = bgmaxSectionTotals(covered);
    return {
      ...opening,
      payments: covered,
      deposit: {
        bankAccount,
        paymentDate,
        serialNumber,
        amountMinor: Number(totals.amountMinor),
        currency: opening.currency,
        paymentCount: totals.paymentCount,
        depositType,
      },
    };
  });

const bgmaxFile: fc.Arbitrary<BgmaxFile> = fc
  .record({
    writtenAt: fc
      .record({
        date: isoDate,
        h: fc.integer({ min: 0, max: 23 }),
        m: fc.integer({ min: 0, max: 59 }),
        s: fc.integer({ min: 0, max: 59 }),
        micro: fc.integer({ min: 0, max: 999999 }),
      })
      .map(({ date, h, m, s, micro }) => {
        const two = (n: number) => String(n).padStart(2, '0');
        return `${date}T${two(h)}:${two(m)}:${two(s)}.${String(micro).padStart(6, '0')}`;
      }),
    testMark: fc.constantFrom('T', 'P') as fc.Arbitrary<'T' | 'P'>,
    sections: fc.array(section, { minLength: 1, maxLength: 3 }),
  })
  .map(({ writtenAt, testMark, sections }) => ({
    header: { layoutName: 'BGMAX' as const, version: '01', writtenAt, testMark },
    sections,
    end: bgmaxEndCounts(sections),
  }));

// The properties are CPU-bound, so they get a generous timeout rather than the 5 s default.
describe('property: write → read', () => {
  it('a random settlement (amounts 1..10^12 öre, OCR and free references, åäö names) reads back equal and adds up', () => {
    fc.assert(
      fc.property(settlementInput, (input) => {
        const file = createBgmaxSettlementFile(input);
        const bytes = writeBgmax(file);
        expect(readBgmax(bytes).file).toEqual(file);
        const expectedTotal = input.payments.reduce((sum, p) => sum + BigInt(p.amountMinor), 0n);
        expect(BigInt(file.sections[0]?.deposit.amountMinor ?? -1)).toBe(expectedTotal);
        expect(file.sections[0]?.deposit.paymentCount).toBe(input.payments.length);
        expect(file.end.paymentCount).toBe(input.payments.length);
        expect(lines(bytes).every((record) => record.length === 80)).toBe(true);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('a random whole file (deductions, extra references, every detail record) reads back equal', () => {
    fc.assert(
      fc.property(bgmaxFile, (file) => {
        const result = readBgmax(writeBgmax(file));
        expect(result.file).toEqual(file);
        for (const s of result.file.sections) {
          expect(BigInt(s.deposit.amountMinor)).toBe(bgmaxSectionTotals(s.payments).amountMinor);
        }
        expect(result.file.end).toEqual(bgmaxEndCounts(file.sections));
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe('performance sanity (not timed)', () => {
  it('writes and reads a settlement of 100 000 payments', () => {
    const count = 100_000;
    const payments = Array.from({ length: count }, (_, i) => ({
      reference: createOcrReference(i + 1),
      amountMinor: (i % 1000) * 1_000_003 + 1,
      senderBankgiro: String(3783511 + (i % 97)),
      name: `Kund ${i} Åkesson & Söner`,
    }));
    const bytes = writeBgmaxSettlement({ payeeBankgiro: '9912346', paymentDate: '2025-03-14', payments });
    // 01, 05, 15, 70 plus a TK20 and a TK26 per payment, 82 bytes each.
    expect(bytes.length).toBe((4 + 2 * count) * 82);
    const { file } = readBgmax(bytes);
    const expected = payments.reduce((sum, p) => sum + p.amountMinor, 0);
    expect(file.sections[0]?.deposit).toMatchObject({ amountMinor: expected, paymentCount: count });
    expect(file.end.paymentCount).toBe(count);
    expect(file.sections[0]?.payments[count - 1]).toMatchObject({
      reference: createOcrReference(count),
      name: { name: `Kund ${count - 1} Åkesson & Söner` },
    });
  }, 60_000);
});
